import { ERROR_CODES, type ErrorCode, type NextAction, type Retryable } from '../errors/error-model';

/**
 * A candidate operation's refusal: the one error model (errors/error-model.ts) with what the
 * candidate adds (the operation index, the target, code-specific details).
 * Refusals are values: the decider returns them (sometimes together with events to record).
 */

export interface Refusal {
  code: ErrorCode;
  reason: string;
  message: string;
  retryable: Retryable;
  next_actions: NextAction[];
  operation_index?: number;
  target?: Record<string, unknown>;
  details?: Record<string, unknown>;
}

/** Reasons whose retry advice differs from their code's default. */
const REASON_RETRYABLE: Record<string, Retryable> = {
  candidate_applied: 'none',
  concurrent_candidate: 'after_refresh',
  approval_timeout: 'same_request',
};

export function refusal(
  code: ErrorCode,
  reason: string,
  message: string,
  extra: Partial<Omit<Refusal, 'code' | 'reason' | 'message'>> = {},
): Refusal {
  const { retryable, next_actions, ...rest } = extra;
  return {
    code,
    reason,
    message,
    retryable: retryable ?? REASON_RETRYABLE[reason] ?? ERROR_CODES[code].retryable,
    next_actions: next_actions ?? [],
    ...rest,
  };
}
