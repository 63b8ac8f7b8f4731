import { isOutcomeStatus, unreachable, type OutcomeStatus } from '../outcome';
import { toAsciiJson } from './ascii-json';
import { MAX_RESPONSE_BYTES, RPC_ERROR, type RpcError } from './json-rpc.constants';
import { encodeRequestId, type RequestId } from './request-id';

/**
 * Response lines (without their LF), pure ASCII. An operation's result object is the JSON-RPC
 * `result`, except for the statuses below, which are errors carrying the whole result as
 * `error.data` (its diagnostic `code` and `failure_detail` kept):
 *   invalid_argument → -32602 (the arguments were refused before any work: unknown, missing or
 *                     ill-typed argument, malformed target id, …);
 *   not_found        → -32000 (semantic failure: the arguments were fine, the target does not exist).
 * Every other status — ok, accepted, rejected (a recorded decision), saved, success, failed
 * (replay divergence is a report) — is a normal result.
 */
export function rpcErrorOf(status: OutcomeStatus): RpcError['code'] | null {
  switch (status) {
    case 'invalid_argument':
      return RPC_ERROR.invalidParams;
    case 'not_found':
    case 'unsupported':
      return RPC_ERROR.semanticFailure;
    case 'ok':
    case 'accepted':
    case 'rejected':
    case 'saved':
    case 'partial':
    case 'success':
    case 'failed':
    case 'refreshed':
    case 'in_sync':
    case 'candidates':
    case 'observed':
    case 'observed_batch':
    case 'scope_page':
    case 'ambiguous':
    case 'error': // candidates: seed 000's envelope is the result
      return null;
    default:
      return unreachable(status);
  }
}

export function resultLine(id: RequestId, result: unknown): string {
  return `{"jsonrpc":"2.0","id":${encodeRequestId(id)},"result":${toAsciiJson(result)}}`;
}

export function errorLine(id: RequestId | null, error: RpcError): string {
  const body: Record<string, unknown> = { code: error.code, message: error.message };
  if (error.data !== undefined) body.data = error.data;
  return `{"jsonrpc":"2.0","id":${encodeRequestId(id)},"error":${toAsciiJson(body)}}`;
}

/** The response for an operation's result object, by its status. */
export function outcomeLine(id: RequestId, result: Record<string, unknown>): string {
  const code = isOutcomeStatus(result.status) ? rpcErrorOf(result.status) : null; // no status of the catalog's: a plain result
  if (code === null) return resultLine(id, result);
  const detail = typeof result.failure_detail === 'string' ? result.failure_detail : undefined;
  const message = detail ?? (code === RPC_ERROR.invalidParams ? 'Invalid params' : String(result.status));
  return errorLine(id, { code, message, data: result });
}

/** Why a catalog method is not served in this session. */
export type UnavailableReason = 'unknown' | 'read_only_profile' | { not_permitted: string };

/** -32601: the method is not in the catalog, writes while the session is read-only, or its policy hides it. */
export function unavailableMethodError(method: string, reason: UnavailableReason): RpcError {
  if (typeof reason === 'object') {
    return {
      code: RPC_ERROR.methodNotFound,
      message: 'Method not available',
      data: { code: 'operation_not_permitted', method, failure_detail: reason.not_permitted },
    };
  }
  if (reason === 'read_only_profile') {
    return {
      code: RPC_ERROR.methodNotFound,
      message: 'Method not available',
      data: { code: 'operation_not_permitted', method, failure_detail: `${method} writes; this session runs the read-only profile.` },
    };
  }
  return {
    code: RPC_ERROR.methodNotFound,
    message: 'Method not found',
    data: { code: 'unknown_operation', method, failure_detail: `No operation named ${method}.` },
  };
}

/** -32602 for params that are present but not a JSON object (arrays, null, scalars); null when fine. */
export function paramsShapeError(method: string, params: unknown): RpcError | null {
  if (params === undefined) return null;
  if (params !== null && typeof params === 'object' && !Array.isArray(params)) return null;
  const detail = 'params must be a JSON object of named arguments (or absent).';
  return {
    code: RPC_ERROR.invalidParams,
    message: detail,
    data: { status: 'invalid_argument', code: 'invalid_params', tool: method, failure_detail: detail },
  };
}

/** -32603: the server failed while answering; the request may be sent again. */
export function internalError(): RpcError {
  return {
    code: RPC_ERROR.internal,
    message: 'Internal error',
    data: { status: 'internal', code: 'internal', retryable: 'same_request', failure_detail: 'The server failed while answering this request.' },
  };
}

export type FittedLine = { line: string; tooLarge: false } | { line: string; tooLarge: true; responseBytes: number };

/**
 * A line that fits MAX_RESPONSE_BYTES with its LF, or a -32001 error in its place (nothing of the
 * original payload is kept). Lines are ASCII, so characters are bytes.
 */
export function fitResponse(id: RequestId | null, line: string, limit = MAX_RESPONSE_BYTES): FittedLine {
  const bytes = line.length + 1;
  if (bytes <= limit) return { line, tooLarge: false };
  const error: RpcError = {
    code: RPC_ERROR.responseTooLarge,
    message: 'Response too large',
    data: {
      code: 'response_too_large',
      limit_bytes: limit,
      response_bytes: bytes,
      failure_detail: `The response would be ${bytes} bytes; the limit is ${limit} including LF. The session stops.`,
    },
  };
  return { line: errorLine(id, error), tooLarge: true, responseBytes: bytes };
}

/** -32700 for a frame over the limit: answered once, after the frame is drained, then the session stops. */
export function oversizedFrameError(limit: number): RpcError {
  return {
    code: RPC_ERROR.parseError,
    message: 'Parse error',
    data: {
      code: 'frame_too_large',
      limit_bytes: limit,
      failure_detail: `A frame exceeded ${limit} bytes before LF; it was discarded unread. The session stops.`,
    },
  };
}
