/**
 * The one error model every operation and every transport uses (seed 000's envelope): a closed list
 * of codes, what retrying can achieve, and the calls that would help next. Transports map it (HTTP
 * statuses, JSON-RPC codes); nothing else restates it.
 */

/** none: the same request fails again; same_request: resend it unchanged; after_refresh: re-read, rebuild, send a new request. */
export const RETRYABLES = ['none', 'same_request', 'after_refresh'] as const;
export type Retryable = (typeof RETRYABLES)[number];

/**
 * The catalog's operations, each with its params: libs/protocol registers them
 * (catalog/catalog-register.ts, `operations: OperationParams`), so the core names operations and types
 * next actions without depending on the catalog. Unregistered (a program without libs/protocol), any name goes.
 */
export interface CatalogRegister {}

type Operations = CatalogRegister extends { operations: infer O } ? O : Record<string, Record<string, unknown>>;

/** An operation of the catalog (once registered), for the core to name one: a next action's, a profile's tools. */
export type CatalogOperation = keyof Operations & string;

/**
 * A call that would help next: the operation, why, and its complete arguments (sent as they are, it
 * passes admission), typed by the operation: a misspelled name or a param it does not take does not compile.
 */
export type NextAction<N extends CatalogOperation = CatalogOperation> = N extends CatalogOperation ? { operation: N; reason: string; params: Operations[N] } : never;

/** Every error code, with the retryable it defaults to and what it means. */
export const ERROR_CODES = {
  invalid_arguments: { retryable: 'none', meaning: 'Malformed or unusable arguments, body, headers or request.' },
  unsupported_operation: { retryable: 'none', meaning: 'Candidates: an operation or option that is not served.' },
  unauthenticated: { retryable: 'none', meaning: 'No bearer token, or one that is unknown or revoked.' },
  permission_denied: { retryable: 'none', meaning: 'The token lacks the scope this route declares, or its owner policy refuses.' },
  not_found: { retryable: 'none', meaning: 'Unknown target, candidate, approval or route.' },
  precondition_failed: { retryable: 'after_refresh', meaning: 'A version or hash guard no longer holds (the rejection is recorded).' },
  conflict: { retryable: 'none', meaning: 'The request key is bound to a different proposal (the rejection is recorded).' },
  proposal_rejected: { retryable: 'after_refresh', meaning: 'The proposal was decided and rejected; the diagnostic says why (recorded).' },
  stale_snapshot: { retryable: 'after_refresh', meaning: 'Candidates: a target moved since the base the operations were written against.' },
  snapshot_expired: { retryable: 'after_refresh', meaning: 'Candidates: the candidate expired or was evicted.' },
  resource_limit: { retryable: 'none', meaning: 'A bound was hit: the request size or time, or the service is saturated (429 and 503: same_request).' },
  unavailable: { retryable: 'same_request', meaning: 'The gateway is shutting down or the database is unreachable.' },
  internal: { retryable: 'same_request', meaning: 'An unexpected failure; retry once, then report it with the request id.' },
  // The rest of seed 000's closed list: no operation answers them yet.
  ambiguous_owner: { retryable: 'none', meaning: 'Candidates: reserved.' },
  read_only_origin: { retryable: 'none', meaning: 'Candidates: reserved.' },
  compile_failed: { retryable: 'none', meaning: 'Candidates: reserved.' },
  insufficient_context: { retryable: 'none', meaning: 'Candidates: reserved.' },
} as const satisfies Record<string, { retryable: Retryable; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
