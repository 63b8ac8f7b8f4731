import { escapeNonAscii } from './ascii-json';

/**
 * A JSON-RPC request id as this protocol admits it:
 *   - an unsigned 64-bit integer, written as a plain JSON integer token (no sign, fraction, exponent
 *     or leading zero) in 0..18446744073709551615; it is kept as its token and echoed verbatim;
 *   - a non-empty string of at most 128 UTF-8 bytes with no control characters (Unicode Cc:
 *     U+0000–U+001F, U+007F–U+009F) and no lone surrogates (they have no UTF-8 form).
 * Everything else (null, negative, fractional, 1e3, objects, …) is malformed.
 */
export type RequestId = { kind: 'integer'; token: string } | { kind: 'string'; value: string };

export const MAX_ID_UTF8_BYTES = 128;
const U64_MAX = (1n << 64n) - 1n;
const INTEGER_TOKEN = /^(?:0|[1-9][0-9]*)$/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const UTF8 = new TextEncoder();
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The lexical token of a JSON number, as the strict parser hands it to a reviver. */
export class NumberToken {
  constructor(readonly token: string) {}
}

export type IdCheck = { ok: true; id: RequestId } | { ok: false; detail: string };

export function checkRequestId(raw: unknown): IdCheck {
  if (raw instanceof NumberToken) {
    if (!INTEGER_TOKEN.test(raw.token)) {
      return { ok: false, detail: `Numeric id ${raw.token} is not an unsigned integer token.` };
    }
    if (BigInt(raw.token) > U64_MAX) return { ok: false, detail: `Numeric id ${raw.token} exceeds 2^64-1.` };
    return { ok: true, id: { kind: 'integer', token: raw.token } };
  }
  if (typeof raw === 'string') {
    if (raw.length === 0) return { ok: false, detail: 'String id is empty.' };
    if (LONE_SURROGATE.test(raw)) return { ok: false, detail: 'String id contains a lone surrogate.' };
    if (CONTROL.test(raw)) return { ok: false, detail: 'String id contains a control character.' };
    if (UTF8.encode(raw).length > MAX_ID_UTF8_BYTES) {
      return { ok: false, detail: `String id is longer than ${MAX_ID_UTF8_BYTES} UTF-8 bytes.` };
    }
    return { ok: true, id: { kind: 'string', value: raw } };
  }
  return { ok: false, detail: 'id must be an unsigned 64-bit integer or a non-empty string.' };
}

/** The id as JSON text (ASCII): the integer's own token, or the escaped string; null when unknown. */
export function encodeRequestId(id: RequestId | null): string {
  if (id === null) return 'null';
  if (id.kind === 'integer') return id.token;
  return escapeNonAscii(JSON.stringify(id.value));
}
