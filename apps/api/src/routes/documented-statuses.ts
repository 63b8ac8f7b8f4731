import { HTTP_STATUSES } from '../errors/error-envelope';
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

const MEANINGS: Record<number, string> = {
  200: 'The answer (a rejected preview and a diverged replay are answers too).',
  201: 'Created.',
  304: 'Not modified: If-None-Match holds the current version.',
  400: 'Invalid arguments, body or headers.',
  401: 'No valid bearer token.',
  403: 'The token lacks this route\'s scope, or its owner policy forbids the operation.',
  404: 'Unknown target, candidate or approval.',
  408: 'The request did not arrive in time.',
  409: 'A stale version/hash guard, a request key bound to another proposal, or a candidate whose base moved; the full rejection is the body.',
  410: 'The candidate expired.',
  413: 'The body exceeds the request bound, or the replacement exceeds its limit.',
  414: 'The request line is too long.',
  415: 'The body is not JSON.',
  422: 'The proposal was decided and rejected; the diagnostic says why.',
  429: 'Saturated: retry after Retry-After.',
  431: 'The request headers are too large.',
  500: 'Unexpected failure.',
  503: 'Shutting down, the database unreachable, or a transaction that could not finish in time: retry after Retry-After.',
};

/** The error codes the gateway sends with an HTTP status (HTTP_STATUSES, the README's table). */
export function codesOf(status: number): string[] {
  return Object.entries(HTTP_STATUSES)
    .filter(([, statuses]) => (statuses as readonly number[]).includes(status))
    .map(([code]) => code);
}

/** What a status means, with the error codes it is sent with. */
export const STATUS_MEANINGS: Record<number, string> = Object.fromEntries(
  Object.entries(MEANINGS).map(([status, meaning]) => {
    const codes = codesOf(Number(status));
    return [status, codes.length ? `${meaning} error.code: ${codes.map((c) => `\`${c}\``).join(', ')}.` : meaning];
  }),
);
