import { codePointLength, codePointToUnit, isBmpOnly, unitToCodePoint } from '../text/code-points';

/** An earlier change of this transaction, in code points of the buffer it was applied to. */
export interface AppliedSpan {
  change_id: string;
  change_index: number;
  start: number;
  end: number;
  replacement_chars: number;
}

/**
 * The buffer a transaction's changes see one after another, starting from the canonical target.
 * Offsets are converted only where needed; astral-free text takes the identity path. The astral
 * flag is conservative: it only ever turns on (a replacement with surrogates), which keeps every
 * change O(buffer) with no rescan of the whole text.
 */
export class SequentialBuffer {
  text: string;
  bmpOnly: boolean;
  length: number;
  readonly originalBmpOnly: boolean;
  readonly applied: AppliedSpan[] = [];
  /**
   * The UTF-16 range of the current text that may differ from the original; everything before it
   * and (aligned from the end) after it is unchanged. Null until the first change.
   */
  dirty: UnitRange | null = null;

  constructor(readonly original: string) {
    this.text = original;
    this.originalBmpOnly = isBmpOnly(original);
    this.bmpOnly = this.originalBmpOnly;
    this.length = this.bmpOnly ? original.length : codePointLength(original);
  }

  get priorChanges(): number {
    return this.applied.length;
  }

  toUnit(cp: number): number {
    return codePointToUnit(this.text, cp, this.bmpOnly);
  }

  toCodePoint(unit: number): number {
    return unitToCodePoint(this.text, unit, this.bmpOnly);
  }

  /** Code-point offsets of ascending UTF-16 indexes, in one walk. */
  toCodePoints(units: readonly number[]): number[] {
    return unitsToCodePoints(this.text, units, this.bmpOnly);
  }

  /** Replace UTF-16 range [unitStart, unitEnd) and remember the change for later mapping. */
  replace(unitStart: number, unitEnd: number, replacement: string, span: AppliedSpan): void {
    this.dirty = mergeDirty(this.dirty, unitStart, unitEnd, replacement.length);
    this.text = this.text.slice(0, unitStart) + replacement + this.text.slice(unitEnd);
    if (this.bmpOnly && !isBmpOnly(replacement)) this.bmpOnly = false;
    this.length += span.replacement_chars - (span.end - span.start);
    this.applied.push(span);
  }

  /**
   * The earlier change that consumed a transaction-start range [start, end), found by carrying the
   * range forward through each change: a change consumes it when their spans overlap, or when an
   * insertion lands strictly inside it.
   */
  consumerOf(start: number, end: number): AppliedSpan | null {
    let s = start;
    let e = end;
    for (const change of this.applied) {
      const overlaps =
        change.start < change.end ? s < change.end && change.start < e : s < change.start && change.start < e;
      if (overlaps) return change;
      if (s >= change.end) {
        const shift = change.replacement_chars - (change.end - change.start);
        s += shift;
        e += shift;
      }
    }
    return null;
  }
}

export interface UnitRange {
  start: number;
  end: number;
}

/** Carry the dirty range through one replacement of [start, end) by `length` units. */
function mergeDirty(dirty: UnitRange | null, start: number, end: number, length: number): UnitRange {
  if (!dirty) return { start, end: start + length };
  const delta = length - (end - start);
  const mapStart = dirty.start <= start ? dirty.start : dirty.start >= end ? dirty.start + delta : start;
  const mapEnd = dirty.end <= start ? dirty.end : dirty.end >= end ? dirty.end + delta : start + length;
  return { start: Math.min(mapStart, start), end: Math.max(mapEnd, start + length) };
}

export function unitsToCodePoints(text: string, units: readonly number[], bmpOnly = isBmpOnly(text)): number[] {
  if (bmpOnly) return [...units];
  const out: number[] = [];
  let unit = 0;
  let cp = 0;
  for (const target of units) {
    if (target < unit) {
      out.push(unitToCodePoint(text, target, false));
      continue;
    }
    while (unit < target) {
      const code = text.charCodeAt(unit);
      const pair = code >= 0xd800 && code <= 0xdbff && unit + 1 < text.length;
      const next = pair ? text.charCodeAt(unit + 1) : 0;
      unit += pair && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
      cp++;
    }
    out.push(cp);
  }
  return out;
}
