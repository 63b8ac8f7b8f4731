import { ERROR_CODES, type ErrorCode, type NextAction, type Retryable } from '@palimpsest/core/errors/error-model';
import { isOperationName } from '@palimpsest/protocol/catalog/catalog';
import { concretePath, pathArgumentOf, routeOf } from '../routes/route-table';

/**
 * The `error` object every non-2xx HTTP answer carries beside the operation's own fields: the one
 * error model (libs/core/src/errors/error-model.ts), with HTTP's statuses, and each next action
 * addressed by its route. Decide what to do from code, reason, retryable and next_actions; message
 * is for people.
 */

/** Every status the gateway sends with each code (the README's table is held to this). */
export const HTTP_STATUSES = {
  invalid_arguments: [400, 415],
  unsupported_operation: [400],
  unauthenticated: [401],
  permission_denied: [403],
  not_found: [404],
  precondition_failed: [409],
  conflict: [409],
  proposal_rejected: [422],
  stale_snapshot: [409],
  snapshot_expired: [410],
  resource_limit: [413, 408, 414, 429, 431, 503], // first: what an operation's resource_limit answers with
  unavailable: [503],
  internal: [500],
  ambiguous_owner: [422],
  read_only_origin: [422],
  compile_failed: [422],
  insufficient_context: [422],
} as const satisfies { [C in ErrorCode]: readonly number[] };

/**
 * A next action, addressed by its HTTP route so a client can follow it as is: `path` has the path
 * parameter filled in and, for a GET, the other arguments as its query string; a POST's arguments
 * are `body`. `params` stays the operation's complete arguments, as on every other transport.
 */
export type HttpNextAction = NextAction & { method: string; path: string; body?: Record<string, unknown> };

export interface ErrorEnvelope {
  code: ErrorCode;
  reason: string;
  message: string;
  retryable: Retryable;
  next_actions: HttpNextAction[];
  /** This request's X-Request-Id (not a request key). */
  trace_id?: string;
}

export function envelope(
  code: ErrorCode,
  reason: string,
  message: string,
  extra: { retryable?: Retryable; next_actions?: HttpNextAction[] } = {},
): ErrorEnvelope {
  return {
    code,
    reason,
    message,
    retryable: extra.retryable ?? ERROR_CODES[code].retryable,
    next_actions: extra.next_actions ?? [],
  };
}

/** An operation's next action with its route: the one list every transport shows, HTTP adding method and path. */
export function httpNextAction(action: NextAction): HttpNextAction {
  if (!isOperationName(action.operation)) return { ...action, method: 'POST', path: '/v1' }; // never: actions name catalog operations
  const route = routeOf(action.operation);
  const inPath = pathArgumentOf(route);
  const params: Record<string, unknown> = action.params ?? {};
  const { [inPath ?? '']: id, ...rest } = params;
  const path = concretePath(route.path, typeof id === 'string' ? encodeURIComponent(id) : undefined);
  if (route.method === 'POST') return { ...action, method: route.method, path, body: rest };
  return { ...action, method: route.method, path: path + queryString(rest) };
}

/** GET arguments as the route's query parsing reads them back (a null argument is the same as an absent one). */
function queryString(args: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) if (value !== null && value !== undefined) query.append(name, String(value));
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** A candidate operation's own envelope (seed 000) as HTTP sends it: the same fields, each next action with its route. */
export function routedEnvelope(error: Record<string, unknown>): ErrorEnvelope {
  const actions = Array.isArray(error.next_actions) ? (error.next_actions as NextAction[]) : [];
  return { ...(error as unknown as ErrorEnvelope), next_actions: actions.map(httpNextAction) };
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
        required: ['operation', 'method', 'path', 'reason', 'params'],
        properties: {
          operation: { type: 'string' },
          method: { type: 'string' },
          path: { type: 'string', description: 'The path parameter filled in; for a GET, the other arguments as the query string.' },
          reason: { type: 'string' },
          params: { type: 'object', description: 'The operation\'s complete arguments (as on every transport).' },
          body: { type: 'object', description: 'For a POST: the JSON body to send (params without the path parameter).' },
        },
      },
    },
    trace_id: { type: 'string', description: 'This request\'s X-Request-Id, also in the logs (not an idempotency key).' },
  },
};
