/**
 * Small code-point walks around a UTF-16 index, for bounded previews (candidate context,
 * actual_text). They never scan further than the window asked for.
 */

function isHigh(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLow(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** UTF-16 index reached by moving `count` code points back from `unit` (clamped at 0). */
export function stepBack(text: string, unit: number, count: number): number {
  let at = unit;
  for (let n = 0; n < count && at > 0; n++) {
    at -= at >= 2 && isLow(text.charCodeAt(at - 1)) && isHigh(text.charCodeAt(at - 2)) ? 2 : 1;
  }
  return at;
}

/** UTF-16 index reached by moving `count` code points forward from `unit` (clamped at the end). */
export function stepForward(text: string, unit: number, count: number): number {
  let at = unit;
  for (let n = 0; n < count && at < text.length; n++) {
    at += isHigh(text.charCodeAt(at)) && at + 1 < text.length && isLow(text.charCodeAt(at + 1)) ? 2 : 1;
  }
  return at;
}

/** At most `max` code points from the start of `text`, and whether anything was cut. */
export function headCodePoints(text: string, max: number): { text: string; truncated: boolean } {
  const end = stepForward(text, 0, max);
  return { text: text.slice(0, end), truncated: end < text.length };
}

/** At most `max` code points from the end of `text`, and whether anything was cut. */
export function tailCodePoints(text: string, max: number): { text: string; truncated: boolean } {
  const start = stepBack(text, text.length, max);
  return { text: text.slice(start), truncated: start > 0 };
}

/** True when `unit` does not split a surrogate pair. */
export function isCodePointBoundary(text: string, unit: number): boolean {
  return !(unit > 0 && unit < text.length && isLow(text.charCodeAt(unit)) && isHigh(text.charCodeAt(unit - 1)));
}
