import { hasLoneSurrogate } from '@palimpsest/core/text/code-points';
import { escapeNonAscii, toAsciiJson } from './codec/ascii-json';
import { FILE_READ_LIMITS } from './catalog/operations/file-reads.operations';

/**
 * The most bytes one answer may take on the wire, whatever the transport. The largest form an answer
 * takes is an MCP tool result: the answer twice (as the JSON text of content[0] and as
 * structuredContent), inside a JSON-RPC line that is ASCII-escaped, so a control character costs 13
 * bytes and an ASCII letter 2. HTTP routes and JSON lines send the answer once; bounding the MCP form
 * bounds them all.
 */
export const MAX_RESULT_BYTES = FILE_READ_LIMITS.MAX_RESULT_BYTES;

/** What a transport adds around the tool result: the JSON-RPC id, SSE framing (event:, id:, data:). */
const FRAMING_BYTES = 1024;

/** The bytes `answer` takes as an MCP tool result (the largest form any transport sends), framing included. */
export function sentBytes(answer: object): number {
  const literal = JSON.stringify(answer);
  const text = hasLoneSurrogate(literal) ? toAsciiJson(answer) : literal;
  return toAsciiJson({ content: [{ type: 'text', text }], structuredContent: answer, isError: false }).length + FRAMING_BYTES;
}

/**
 * What a string adds to sentBytes when it is a value inside the answer (no lone surrogate): its JSON
 * escape in structuredContent, plus that escape escaped again inside content[0].text. Additive: the cost
 * of a concatenation is the sum of its parts, cut anywhere but inside a surrogate pair.
 */
export function stringSentBytes(value: string): number {
  const escaped = JSON.stringify(value);
  return escapeNonAscii(escaped).length - 2 + toAsciiJson(escaped.slice(1, -1)).length - 2;
}

/** What one more element of an array inside the answer adds to sentBytes (its comma included). */
export function elementSentBytes(value: unknown): number {
  const json = JSON.stringify(value);
  return escapeNonAscii(json).length + toAsciiJson(json).length - 2 + 2;
}

/** The first `units` UTF-16 units of `text`, one fewer when they would end inside a surrogate pair: a cut that keeps whole characters. */
export function wholeCharacters(text: string, units: number): string {
  const code = text.charCodeAt(units - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? units - 1 : units);
}

/** The longest prefix of `text`, in whole characters, whose stringSentBytes fits `budget`. */
export function prefixWithin(text: string, budget: number): string {
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (stringSentBytes(wholeCharacters(text, mid)) <= budget) low = mid;
    else high = mid - 1;
  }
  return wholeCharacters(text, low);
}
