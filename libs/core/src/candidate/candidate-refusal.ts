/**
 * The error model every candidate operation answers with (seed 000's envelope): a closed list of
 * codes, an open `reason`, what retrying can achieve, and the requests that would help next.
 * Refusals are values: the decider returns them (sometimes together with events to record).
 */

export const ERROR_CODES = [
  'unsupported_operation',
  'invalid_arguments',
  'ambiguous_owner',
  'read_only_origin',
  'stale_snapshot',
  'precondition_failed',
  'compile_failed',
  'conflict',
  'insufficient_context',
  'snapshot_expired',
  'permission_denied',
  'resource_limit',
  'not_found',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** none: the same request fails again; same_request: resend it unchanged; after_refresh: re-read, rebuild, new request_id. */
export type Retryable = 'none' | 'same_request' | 'after_refresh';

export interface NextAction {
  operation: string;
  reason: string;
  params?: Record<string, unknown>;
}

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

const DEFAULT_RETRYABLE: Record<ErrorCode, Retryable> = {
  unsupported_operation: 'none',
  invalid_arguments: 'none',
  ambiguous_owner: 'none',
  read_only_origin: 'none',
  stale_snapshot: 'after_refresh',
  precondition_failed: 'after_refresh',
  compile_failed: 'none',
  conflict: 'none',
  insufficient_context: 'none',
  snapshot_expired: 'after_refresh',
  permission_denied: 'none',
  resource_limit: 'none',
  not_found: 'none',
  internal: 'same_request',
};

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
    retryable: retryable ?? REASON_RETRYABLE[reason] ?? DEFAULT_RETRYABLE[code],
    next_actions: next_actions ?? [],
    ...rest,
  };
}

export const isErrorCode = (value: unknown): value is ErrorCode => ERROR_CODES.includes(value as ErrorCode);
