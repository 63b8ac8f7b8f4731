/**
 * Offsets on the wire are Unicode code points; JavaScript strings index UTF-16 units.
 * Every conversion goes through here. Text without surrogates takes the identity fast path.
 */

const SURROGATE = /[\uD800-\uDFFF]/;

/** True when every UTF-16 unit is a whole code point (no astral characters, no surrogates). */
export function isBmpOnly(text: string): boolean {
  return !SURROGATE.test(text);
}

export function codePointLength(text: string): number {
  if (isBmpOnly(text)) return text.length;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** Code-point offset of UTF-16 index `unitIndex` (which must sit on a code-point boundary). */
export function unitToCodePoint(text: string, unitIndex: number, bmpOnly = isBmpOnly(text)): number {
  if (bmpOnly) return unitIndex;
  return codePointLength(text.slice(0, unitIndex));
}

/** UTF-16 index of code-point offset `cp`; offsets past the end clamp to text.length. */
export function codePointToUnit(text: string, cp: number, bmpOnly = isBmpOnly(text)): number {
  if (bmpOnly) return Math.min(cp, text.length);
  let unit = 0;
  let seen = 0;
  while (seen < cp && unit < text.length) {
    const code = text.charCodeAt(unit);
    if (code >= 0xd800 && code <= 0xdbff && unit + 1 < text.length) {
      const next = text.charCodeAt(unit + 1);
      unit += next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
    } else {
      unit += 1;
    }
    seen++;
  }
  return unit;
}

/** Slice by code-point offsets [start, end), clamped to the text. */
export function sliceCodePoints(text: string, start: number, end: number, bmpOnly = isBmpOnly(text)): string {
  if (bmpOnly) return text.slice(start, end);
  const from = codePointToUnit(text, start, false);
  const to = codePointToUnit(text, end, false);
  return text.slice(from, to);
}

/**
 * A text with precomputed code-point ↔ UTF-16 mapping, for callers that convert many offsets
 * in one large text. Astral-free texts keep no table at all.
 */
export class CodePointIndex {
  readonly bmpOnly: boolean;
  readonly length: number;
  private readonly unitOfCp: Uint32Array | null;

  constructor(readonly text: string) {
    this.bmpOnly = isBmpOnly(text);
    if (this.bmpOnly) {
      this.unitOfCp = null;
      this.length = text.length;
      return;
    }
    const table = new Uint32Array(text.length + 1);
    let cp = 0;
    for (let unit = 0; unit < text.length; unit++, cp++) {
      table[cp] = unit;
      const code = text.charCodeAt(unit);
      if (code >= 0xd800 && code <= 0xdbff && unit + 1 < text.length) {
        const next = text.charCodeAt(unit + 1);
        if (next >= 0xdc00 && next <= 0xdfff) unit++;
      }
    }
    table[cp] = text.length;
    this.length = cp;
    this.unitOfCp = table.subarray(0, cp + 1);
  }

  toUnit(cp: number): number {
    const clamped = Math.max(0, Math.min(cp, this.length));
    return this.unitOfCp ? this.unitOfCp[clamped] : clamped;
  }

  /** Code-point offset of a UTF-16 index on a code-point boundary (binary search). */
  toCodePoint(unit: number): number {
    if (!this.unitOfCp) return unit;
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.unitOfCp[mid] < unit) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  slice(start: number, end: number): string {
    return this.text.slice(this.toUnit(start), this.toUnit(end));
  }
}

/** A lone (unpaired) surrogate cannot be encoded as UTF-8 and never enters storage. */
export function hasLoneSurrogate(text: string): boolean {
  if (isBmpOnly(text)) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return true;
    }
    if (code >= 0xdc00 && code <= 0xdfff) return true;
  }
  return false;
}

export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
