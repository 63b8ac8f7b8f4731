import { pathArgumentOf, specOf, type OperationRoute } from './route-table';

/** The result statuses an operation's catalog entry declares. */
function resultStatuses(route: OperationRoute): string[] {
  const status = (specOf(route.operation).result.properties as Record<string, { enum?: string[] }> | undefined)?.status;
  return status?.enum ?? [];
}

/** Every HTTP status a route can answer with, derived from the route and its catalog entry. */
export function documentedStatuses(route: OperationRoute): number[] {
  const codes = new Set<number>([route.success, 400, 401, 403, 429, 500, 503]);
  if (route.etag) codes.add(304);
  if (pathArgumentOf(route)) codes.add(404);
  if (resultStatuses(route).includes('error')) [403, 404, 409, 410, 413, 422].forEach((c) => codes.add(c));
  if (route.method === 'POST') codes.add(413).add(415);
  if (resultStatuses(route).includes('rejected') && !specOf(route.operation).readOnly) codes.add(409).add(422);
  if (resultStatuses(route).includes('not_found')) codes.add(404);
  return [...codes].sort((a, b) => a - b);
}

export const STATUS_MEANINGS: Record<number, string> = {
  200: 'The answer (a rejected preview and a diverged replay are answers too).',
  201: 'Created.',
  304: 'Not modified: If-None-Match holds the current version.',
  400: 'Invalid arguments, body or headers (invalid_arguments).',
  401: 'No valid bearer token (unauthenticated).',
  403: 'The token lacks this route\'s scope (permission_denied).',
  404: 'Unknown target (not_found).',
  410: 'The candidate expired (snapshot_expired).',
  409: 'A stale version/hash guard (precondition_failed) or a request key bound to another proposal (conflict); the full rejection is the body.',
  413: 'The body exceeds the request bound, or the replacement exceeds its limit (resource_limit).',
  415: 'The body is not JSON (invalid_arguments).',
  422: 'The proposal was decided and rejected (proposal_rejected); the diagnostic says why.',
  429: 'Saturated: retry after Retry-After (resource_limit).',
  500: 'Unexpected failure (internal).',
  503: 'Shutting down or database unreachable (unavailable).',
};
