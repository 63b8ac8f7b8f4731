/**
 * A one-pass check that a JSON text is exactly what canonicalJson writes (members in UTF-16 order, no
 * space, JSON.stringify's escapes and numbers), without building the value: a bundle line's event is
 * hashed as written, and parsing a million of them only to compare them was most of the cost. It never
 * accepts a text canonicalJson would write otherwise; a rare form it does not follow (an escaped member
 * name, a surrogate escape) it refuses, and the caller decides by parsing and encoding instead.
 */

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
/** \b \f \n \r \t: the control characters JSON.stringify escapes short; the others as \u00xx. */
const SHORT_ESCAPES = new Set([98, 102, 110, 114, 116, QUOTE, BACKSLASH]);

/** Where the canonical value starting at `at` ends, or -1. */
export function canonicalValueEnd(text: string, at: number): number {
  const c = text.charCodeAt(at);
  if (c === QUOTE) return stringEnd(text, at);
  if (c === 123) return objectEnd(text, at);
  if (c === 91) return arrayEnd(text, at);
  if (c === 116) return text.startsWith('true', at) ? at + 4 : -1;
  if (c === 102) return text.startsWith('false', at) ? at + 5 : -1;
  if (c === 110) return text.startsWith('null', at) ? at + 4 : -1;
  return numberEnd(text, at);
}

/** The end of a canonical string from its opening quote (just past the closing one), or -1. */
export function stringEnd(text: string, at: number): number {
  if (text.charCodeAt(at) !== QUOTE) return -1;
  for (let i = at + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c < 0x20) return -1;
    if (c === BACKSLASH) {
      const e = text.charCodeAt(++i);
      if (e === 117) {
        if (!isControlEscape(text, i + 1)) return -1;
        i += 4;
      } else if (!SHORT_ESCAPES.has(e)) return -1;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // A pair is written as it is; a lone surrogate is escaped (refused here: the caller decides).
      const next = text.charCodeAt(i + 1);
      if (c >= 0xdc00 || !(next >= 0xdc00 && next <= 0xdfff)) return -1;
      i++;
    }
  }
  return -1;
}

/** \u00xx in lowercase of a control character without a short escape. */
function isControlEscape(text: string, at: number): boolean {
  if (!text.startsWith('00', at)) return false;
  const hex = text.slice(at + 2, at + 4);
  if (!/^[01][0-9a-f]$/.test(hex)) return false;
  const code = parseInt(hex, 16);
  return code !== 8 && code !== 9 && code !== 10 && code !== 12 && code !== 13;
}

function numberEnd(text: string, at: number): number {
  let i = at;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69)) break;
  }
  if (i === at) return -1;
  // A non-negative integer of up to 15 digits with no leading zero is its own canonical form (most numbers of a payload).
  const first = text.charCodeAt(at);
  if (i - at <= 15 && ((first >= 49 && first <= 57) || i - at === 1) && allDigits(text, at, i)) return i;
  const token = text.slice(at, i);
  const n = Number(token);
  return Number.isFinite(n) && String(n) === token ? i : -1;
}

function allDigits(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

function arrayEnd(text: string, at: number): number {
  let i = at + 1;
  if (text.charCodeAt(i) === 93) return i + 1;
  for (;;) {
    i = canonicalValueEnd(text, i);
    if (i < 0) return -1;
    const c = text.charCodeAt(i);
    if (c === 93) return i + 1;
    if (c !== COMMA) return -1;
    i++;
  }
}

function objectEnd(text: string, at: number): number {
  let i = at + 1;
  if (text.charCodeAt(i) === 125) return i + 1;
  let previous: string | null = null;
  for (;;) {
    const keyEnd = stringEnd(text, i);
    if (keyEnd < 0) return -1;
    const key = text.slice(i + 1, keyEnd - 1);
    // An escaped name sorts by what it means, not how it is written: left to the caller.
    if (key.includes('\\') || (previous !== null && !(previous < key))) return -1;
    previous = key;
    if (text.charCodeAt(keyEnd) !== COLON) return -1;
    i = canonicalValueEnd(text, keyEnd + 1);
    if (i < 0) return -1;
    const c = text.charCodeAt(i);
    if (c === 125) return i + 1;
    if (c !== COMMA) return -1;
    i++;
  }
}
