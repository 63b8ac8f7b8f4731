/**
 * Statuses that mean the call itself failed (the request was refused, or named nothing that exists);
 * "error" is seed 000's envelope on candidate operations. A rejected proposal is a successful call.
 */
const CALL_FAILURE_STATUSES: ReadonlySet<string> = new Set(['invalid_argument', 'not_found', 'error']);

export function isCallFailure(result: { status?: unknown }): boolean {
  return CALL_FAILURE_STATUSES.has(String(result.status));
}
