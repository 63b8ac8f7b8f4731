import type { OperationName } from '@palimpsest/protocol/catalog/catalog';
import { concretePath, routeOf } from '../routes/route-table';

/**
 * The `error` object every non-2xx HTTP answer carries beside the operation's own fields. Decide what
 * to do from code, reason, retryable and next_actions; message is for people.
 */
export type Retryable = 'none' | 'same_request' | 'after_refresh';

export const ERROR_CODES = {
  invalid_arguments: { http: [400, 415], retryable: 'none', meaning: 'Malformed or unusable arguments, body, headers or request.' },
  unauthenticated: { http: [401], retryable: 'none', meaning: 'No bearer token, or one that is unknown or revoked.' },
  permission_denied: { http: [403], retryable: 'none', meaning: 'The token lacks the scope this route declares, or its owner policy refuses.' },
  not_found: { http: [404], retryable: 'none', meaning: 'Unknown target, candidate, approval or route.' },
  precondition_failed: { http: [409], retryable: 'after_refresh', meaning: 'A version or hash guard no longer holds (the rejection is recorded).' },
  conflict: { http: [409], retryable: 'none', meaning: 'The request key is bound to a different proposal (the rejection is recorded).' },
  proposal_rejected: { http: [422], retryable: 'after_refresh', meaning: 'The proposal was decided and rejected; the diagnostic says why (recorded).' },
  resource_limit: {
    http: [408, 413, 414, 429, 431, 503],
    retryable: 'none',
    meaning: 'A bound was hit: the request size or time, or the service is saturated (429 and 503: same_request).',
  },
  unavailable: { http: [503], retryable: 'same_request', meaning: 'The gateway is shutting down or the database is unreachable.' },
  internal: { http: [500], retryable: 'same_request', meaning: 'An unexpected failure; retry once, then report it with the request id.' },
  stale_snapshot: { http: [409], retryable: 'after_refresh', meaning: 'Candidates: a target moved since the base the operations were written against.' },
  snapshot_expired: { http: [410], retryable: 'after_refresh', meaning: 'Candidates: the candidate expired or was evicted.' },
  unsupported_operation: { http: [400], retryable: 'none', meaning: 'Candidates: an operation or option that is not served.' },
  // The rest of the candidates' closed list: mapped to an HTTP status, though no operation answers them yet.
  ambiguous_owner: { http: [422], retryable: 'none', meaning: 'Candidates: reserved.' },
  read_only_origin: { http: [422], retryable: 'none', meaning: 'Candidates: reserved.' },
  compile_failed: { http: [422], retryable: 'none', meaning: 'Candidates: reserved.' },
  insufficient_context: { http: [422], retryable: 'none', meaning: 'Candidates: reserved.' },
} as const satisfies Record<string, { http: number[]; retryable: Retryable; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface NextAction {
  operation: string;
  method: string;
  path: string;
  reason: string;
  params?: Record<string, unknown>;
}

export interface ErrorEnvelope {
  code: ErrorCode;
  reason: string;
  message: string;
  retryable: Retryable;
  next_actions: NextAction[];
  /** This request's X-Request-Id (not a request key). */
  trace_id?: string;
}

export function envelope(
  code: ErrorCode,
  reason: string,
  message: string,
  extra: { retryable?: Retryable; next_actions?: NextAction[] } = {},
): ErrorEnvelope {
  return {
    code,
    reason,
    message,
    retryable: extra.retryable ?? ERROR_CODES[code].retryable,
    next_actions: extra.next_actions ?? [],
  };
}

/** A suggested follow-up call, addressed by its HTTP route so a client can follow it as is. */
export function nextAction(operation: OperationName, reason: string, params: Record<string, unknown> = {}): NextAction {
  const route = routeOf(operation);
  const id = typeof params.target_file_id === 'string' ? params.target_file_id : undefined;
  return { operation, method: route.method, path: concretePath(route.path, id), reason, params };
}

/** JSON Schema of the envelope, for the OpenAPI document. */
export const ERROR_ENVELOPE_SCHEMA = {
  type: 'object',
  required: ['code', 'reason', 'message', 'retryable', 'next_actions'],
  properties: {
    code: {
      enum: Object.keys(ERROR_CODES),
      description: 'Closed list (the gateway\'s and the candidate operations\'); see the README for what each means.',
    },
    reason: { type: 'string', description: 'Open refinement of code (failure_reason, argument code, …).' },
    message: { type: 'string', description: 'For people; do not parse.' },
    retryable: {
      enum: ['none', 'same_request', 'after_refresh'],
      description: 'none: the same request fails again. same_request: resend it unchanged. after_refresh: re-read, rebuild, resend.',
    },
    next_actions: {
      type: 'array',
      maxItems: 10,
      items: {
        type: 'object',
        required: ['operation', 'method', 'path', 'reason'],
        properties: {
          operation: { type: 'string' },
          method: { type: 'string' },
          path: { type: 'string' },
          reason: { type: 'string' },
          params: { type: 'object' },
        },
      },
    },
    trace_id: { type: 'string', description: 'This request\'s X-Request-Id, also in the logs (not an idempotency key).' },
  },
};
