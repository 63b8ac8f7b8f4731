/**
 * Code-point arithmetic over UTF-16 unit ranges, without slicing or building tables.
 * Reads convert a handful of offsets per call; walking forward (or backward) from a known
 * boundary keeps that O(distance) with O(1) memory. Astral-free text takes the identity path.
 * A stray surrogate (never stored, but tolerated here) counts as one code point, as in code-points.ts.
 */

const isHigh = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/** True when a surrogate pair starts at `unit`. */
export function pairAt(text: string, unit: number): boolean {
  return isHigh(text.charCodeAt(unit)) && isLow(text.charCodeAt(unit + 1));
}

/** Number of code points in text[from, to); both ends on code-point boundaries. */
export function countCodePoints(text: string, from: number, to: number, bmpOnly: boolean): number {
  if (bmpOnly) return to - from;
  let count = 0;
  for (let unit = from; unit < to; unit += pairAt(text, unit) ? 2 : 1) count++;
  return count;
}

/** Unit index `count` code points after `from`, clamped to the text end. */
export function advanceCodePoints(text: string, from: number, count: number, bmpOnly: boolean): number {
  if (bmpOnly) return Math.min(from + count, text.length);
  let unit = from;
  for (let seen = 0; seen < count && unit < text.length; seen++) unit += pairAt(text, unit) ? 2 : 1;
  return unit;
}

/** Unit index `count` code points before `from`, clamped to the text start. */
export function retreatCodePoints(text: string, from: number, count: number, bmpOnly: boolean): number {
  if (bmpOnly) return Math.max(from - count, 0);
  let unit = from;
  for (let seen = 0; seen < count && unit > 0; seen++) {
    unit -= unit >= 2 && isLow(text.charCodeAt(unit - 1)) && isHigh(text.charCodeAt(unit - 2)) ? 2 : 1;
  }
  return unit;
}

/** Unit index just past the code point that starts at `unit` (never inside a surrogate pair). */
export function nextCodePoint(text: string, unit: number): number {
  return unit + (pairAt(text, unit) ? 2 : 1);
}
