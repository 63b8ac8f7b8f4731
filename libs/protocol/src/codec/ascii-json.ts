/**
 * JSON text that is pure ASCII: every code unit above U+007F is written as a \uXXXX escape.
 * A reader gets back the identical value, and no character in a string (U+2028, U+2029, U+0085, …)
 * can be taken for a line break by a line-oriented reader. JSON.stringify already escapes lone
 * surrogates (well-formed stringify), and outside strings its output is ASCII, so escaping the
 * remaining non-ASCII code units is enough; a surrogate pair becomes two escapes, as JSON intends.
 */
export function toAsciiJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError('Value has no JSON representation');
  return escapeNonAscii(text);
}

export function escapeNonAscii(text: string): string {
  return text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function isAscii(text: string): boolean {
  return /^[\u0000-\u007f]*$/.test(text);
}
