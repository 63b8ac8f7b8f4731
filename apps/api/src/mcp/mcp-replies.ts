import type { ServerResponse } from 'node:http';
import { ApiError, gatewayError } from '../errors/api-error';

/**
 * A refusal /mcp makes itself, as a JSON-RPC error (what an MCP client reads) whose `data` is the
 * gateway's usual body (status, failure_detail, error envelope with its trace id).
 */
export function sendRefusal(res: ServerResponse, error: ApiError, traceId: string, rpcCode = -32000): void {
  const data = { ...error.body, error: { ...(error.body.error as object), trace_id: traceId } };
  sendJson(res, error.httpStatus, { jsonrpc: '2.0', error: { code: rpcCode, message: error.message, data }, id: null }, error.headers);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** Stateless mode has no session to stream from or to end: only POST, as the transport spec allows. */
export function methodNotAllowed(res: ServerResponse): void {
  const message = 'This gateway serves MCP statelessly (PALIMPSEST_MCP_STATELESS=1): POST /mcp only; there is no session to stream from (GET) or end (DELETE).';
  sendJson(res, 405, { jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { Allow: 'POST' });
}

export const originRefusal = (origin: string) =>
  gatewayError(403, 'permission_denied', 'origin_not_allowed', `Origin ${origin} may not call /mcp: only the gateway's own loopback origins and PALIMPSEST_CORS_ORIGINS may (DNS rebinding protection).`);

export const sessionRequired = () =>
  gatewayError(400, 'invalid_arguments', 'session_required', 'Send initialize first (without Mcp-Session-Id), then send every other request with the Mcp-Session-Id header it answered with.');

export const sessionNotFound = () =>
  gatewayError(404, 'not_found', 'session_not_found', 'No such MCP session: it ended (DELETE), expired after being idle, or the gateway restarted. Initialize a new one.');

export const sessionOfAnotherToken = () =>
  gatewayError(403, 'permission_denied', 'session_of_another_token', 'This MCP session was opened with another token; a session is used only with the token that initialized it.');

export const tooManySessions = (max: number) =>
  gatewayError(429, 'resource_limit', 'too_many_sessions', `At most ${max} MCP sessions are open at once (PALIMPSEST_MCP_MAX_SESSIONS); end one (DELETE /mcp) or retry later.`, {
    retryable: 'same_request',
    headers: { 'Retry-After': '5' },
  });
