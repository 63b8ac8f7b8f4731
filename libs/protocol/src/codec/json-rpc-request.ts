import { RPC_ERROR, type RpcError } from './json-rpc.constants';
import { checkRequestId, NumberToken, type RequestId } from './request-id';
import { numberFromToken, parseStrictJson, StrictJsonError } from './strict-json';

/**
 * One request frame (the bytes before its LF) decoded into what the session acts on.
 * Checks run in this order and the first failure answers:
 *   empty frame → ignored;
 *   CR byte anywhere, invalid UTF-8 (fatal decoding; a BOM is kept and refused by the grammar),
 *   malformed JSON, a duplicate member at any depth, nesting too deep, a non-finite number → -32700;
 *   an array (batch, even empty), a non-object, a malformed id, an unknown envelope member,
 *   jsonrpc other than "2.0", a missing or empty method → -32600.
 * The id is read lexically (its JSON token), so 18446744073709551615 survives exactly. Parameter
 * shape is not judged here: the method's availability answers first (-32601), then params (-32602).
 */
export type DecodedFrame =
  | { kind: 'empty' }
  | { kind: 'request'; id: RequestId; method: string; params: unknown }
  | { kind: 'notification'; method: string }
  | { kind: 'invalid'; id: RequestId | null; error: RpcError };

export const ENVELOPE_MEMBERS: readonly string[] = ['jsonrpc', 'id', 'method', 'params'];

const CR = 0x0d;
const UTF8_FATAL = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function decodeFrame(bytes: Uint8Array): DecodedFrame {
  if (bytes.length === 0) return { kind: 'empty' };
  const cr = bytes.indexOf(CR);
  if (cr !== -1) return parseError('carriage_return', `CR (0x0d) at byte ${cr}; frames are LF-terminated only.`);
  let text: string;
  try {
    text = UTF8_FATAL.decode(bytes);
  } catch {
    return parseError('invalid_utf8', 'The frame is not valid UTF-8.');
  }
  let document: unknown;
  try {
    document = parseStrictJson(text, { reviveNumber: envelopeNumber });
  } catch (err) {
    if (err instanceof StrictJsonError) return parseError(err.code, `${err.message}.`);
    throw err;
  }
  return decodeEnvelope(document);
}

/** Keeps the token of the top-level `id`; every other number becomes a finite double. */
function envelopeNumber(token: string, depth: number, key: string | number | null, offset: number): unknown {
  return depth === 1 && key === 'id' ? new NumberToken(token) : numberFromToken(token, offset);
}

function decodeEnvelope(doc: unknown): DecodedFrame {
  if (Array.isArray(doc)) return invalid(null, 'batch_not_supported', 'Batches (JSON arrays) are not supported; send one request per line.');
  if (doc === null || typeof doc !== 'object') return invalid(null, 'not_an_object', 'A request must be a JSON object.');
  const envelope = doc as Record<string, unknown>;
  let id: RequestId | null = null;
  const hasId = Object.prototype.hasOwnProperty.call(envelope, 'id');
  if (hasId) {
    const checked = checkRequestId(envelope.id);
    if (!checked.ok) return invalid(null, 'invalid_id', checked.detail);
    id = checked.id;
  }
  const unknown = Object.keys(envelope).filter((k) => !ENVELOPE_MEMBERS.includes(k));
  if (unknown.length) {
    return invalid(id, 'unknown_member', `Unknown envelope member(s): ${unknown.join(', ')}. Allowed: ${ENVELOPE_MEMBERS.join(', ')}.`, {
      unknown_members: unknown,
    });
  }
  if (envelope.jsonrpc !== '2.0') return invalid(id, 'invalid_jsonrpc', 'jsonrpc must be the string "2.0".');
  const method = envelope.method;
  if (typeof method !== 'string' || method.length === 0) return invalid(id, 'invalid_method', 'method must be a non-empty string.');
  if (id === null) return { kind: 'notification', method };
  return { kind: 'request', id, method, params: envelope.params };
}

function parseError(code: string, detail: string): DecodedFrame {
  return { kind: 'invalid', id: null, error: { code: RPC_ERROR.parseError, message: 'Parse error', data: { code, failure_detail: detail } } };
}

function invalid(id: RequestId | null, code: string, detail: string, extra: Record<string, unknown> = {}): DecodedFrame {
  return {
    kind: 'invalid',
    id,
    error: { code: RPC_ERROR.invalidRequest, message: 'Invalid Request', data: { code, failure_detail: detail, ...extra } },
  };
}
