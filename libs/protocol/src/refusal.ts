import type { Refusal as CandidateRefusal } from '@palimpsest/core/candidate/candidate-refusal';
import type { NextAction, Retryable } from '@palimpsest/core/errors/error-model';
import type { RefusalDetails } from '@palimpsest/core/errors/refusal-details';
import type { AnswerNotes } from './answer-notes';
import type { Validity, WorkspaceSync } from './catalog/operation-answers.generated';

/** The error envelope a candidate operation answers with status "error" (seed 000): the candidate's refusal, its code as sent. */
export type ErrorEnvelopeBody = Omit<CandidateRefusal, 'code'> & { code: string };

/** The fields a transport reads of every answer whatever its operation (absent on a success). */
export type CommonFields<S extends string = string> = {
  status: S;
  code?: string;
  failure_reason?: string;
  failure_detail?: string;
  retryable?: Retryable;
  diagnostic?: Record<string, unknown> | null;
  next_actions?: NextAction[];
  error?: ErrorEnvelopeBody;
};

/** A journal entry as a publication's refusal names it: its state may be other than committed. */
type JournalState = { id: string; state: string };

/** What a publication that installed the file but could not finish (partial) or a recorded rejection says beside the details. */
type PublicationDetails = {
  workspace_sync?: Omit<WorkspaceSync, 'journal'> & { journal: JournalState };
  journal?: JournalState;
  snapshot_id?: string | null;
  closed_editing_cycle_id?: string | null;
  new_editing_cycle_id?: string | null;
  validity?: Validity;
};

/**
 * An answer other than an operation's success (a refusal, a recorded rejection, a partial write): the
 * fields every transport reads, and the details refusals carry, each named and typed; reading a field no
 * refusal carries does not compile.
 */
export type Refusal<S extends string = string> = CommonFields<S> & RefusalDetails & PublicationDetails & AnswerNotes;
