import { isBmpOnly } from '../text/code-points';

/**
 * Code-point arrays for the near-miss search. Code points are counted as CodePointIndex counts them:
 * a valid surrogate pair is one, a lone surrogate is one.
 */

/**
 * The scanned text as code points, plus the same text as UTF-16 for native search when that finds
 * exactly the code-point occurrences (no lone surrogates, so a well-formed piece can only match on
 * code-point boundaries).
 */
export interface ScanText {
  codes: Int32Array;
  searchText: string | null;
  /** Code-point offset of each UTF-16 index of searchText; null when the two coincide (no surrogates). */
  cpOfUnit: Int32Array | null;
}

export function codesOf(text: string, bmpOnly = isBmpOnly(text)): Int32Array {
  return scanTextOf(text, bmpOnly).codes;
}

/** Code points, and the search form of the text (see ScanText), in one pass. */
export function scanTextOf(text: string, bmpOnly = isBmpOnly(text)): ScanText {
  const codes = new Int32Array(text.length);
  if (bmpOnly) {
    for (let i = 0; i < text.length; i++) codes[i] = text.charCodeAt(i);
    return { codes, searchText: text, cpOfUnit: null };
  }
  const cpOfUnit = new Int32Array(text.length);
  let count = 0;
  let wellFormed = true;
  for (let unit = 0; unit < text.length; unit++) {
    const code = text.codePointAt(unit) as number;
    cpOfUnit[unit] = count;
    if (code > 0xffff) cpOfUnit[++unit] = count;
    else if (code >= 0xd800 && code <= 0xdfff) wellFormed = false;
    codes[count++] = code;
  }
  return { codes: codes.slice(0, count), searchText: wellFormed ? text : null, cpOfUnit };
}

/** Code points [from, to) back to text; lone surrogates come back as they were. */
export function textOfCodes(codes: Int32Array, from: number, to: number): string {
  let out = '';
  for (let i = from; i < to; i++) out += String.fromCodePoint(codes[i]);
  return out;
}
