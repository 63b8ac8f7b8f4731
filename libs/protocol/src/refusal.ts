import type { Refusal as CandidateRefusal } from '@palimpsest/core/candidate/candidate-refusal';
import type { NextAction, Retryable } from '@palimpsest/core/errors/error-model';

/** The error envelope a candidate operation answers with status "error" (seed 000): the candidate's refusal, its code as sent. */
export type ErrorEnvelopeBody = Omit<CandidateRefusal, 'code'> & { code: string };

/**
 * An answer other than an operation's success (a refusal, a recorded rejection, a partial write): the
 * fields every transport reads are typed; the rest are the refusal's own details, named by its code.
 */
export interface Refusal<S extends string = string> {
  status: S;
  code?: string;
  failure_reason?: string;
  failure_detail?: string;
  retryable?: Retryable;
  diagnostic?: Record<string, unknown> | null;
  next_actions?: NextAction[];
  error?: ErrorEnvelopeBody;
  [detail: string]: unknown;
}
