/** Limits and error codes of JSON-RPC 2.0 over newline-delimited JSON (seed 001, "Framing"). */

/** A request frame may hold at most this many bytes before its LF. */
export const MAX_FRAME_BYTES = 65_536;

/** A response line may hold at most this many bytes, its LF included. */
export const MAX_RESPONSE_BYTES = 1_048_576;

export const RPC_ERROR = {
  /** Unparseable frame: invalid UTF-8, CR, malformed JSON, duplicate member, too deep, oversized. */
  parseError: -32700,
  /** Not a request envelope: batch, non-object, unknown member, jsonrpc != "2.0", bad id or method. */
  invalidRequest: -32600,
  /** Unknown method, or a write method under the read-only profile. */
  methodNotFound: -32601,
  /** Non-object params, or the operation refused its arguments (status invalid_argument). */
  invalidParams: -32602,
  /** The operation ran and failed on the facts (status not_found). */
  semanticFailure: -32000,
  /** The response would exceed MAX_RESPONSE_BYTES; the session stops. */
  responseTooLarge: -32001,
  /** The server failed (database down, bug); nothing was answered wrongly. */
  internal: -32603,
} as const;

export type RpcErrorCode = (typeof RPC_ERROR)[keyof typeof RPC_ERROR];

export interface RpcError {
  code: RpcErrorCode;
  message: string;
  data?: Record<string, unknown>;
}
