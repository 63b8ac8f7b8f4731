import { countCodePoints } from '../reads/code-point-walk';
import { isBmpOnly } from '../text/code-points';
import type { StructureSymbol } from './structure.port';

/** Code-point offsets of line starts in a canonical LF text (line 1 starts at 0). */
export function lineStarts(text: string): number[] {
  const bmpOnly = isBmpOnly(text);
  const starts = [0];
  let unit = 0;
  let cp = 0;
  for (let lf = text.indexOf('\n'); lf !== -1; lf = text.indexOf('\n', lf + 1)) {
    cp += countCodePoints(text, unit, lf + 1, bmpOnly);
    unit = lf + 1;
    starts.push(cp);
  }
  return starts;
}

/** 1-based line holding code point `offset` (binary search over `starts`). */
export function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

export type UnlinedSymbol = Omit<StructureSymbol, 'start_line' | 'end_line'>;

/** Adds lines (the last line is the one holding the scope's last code point) and puts symbols in document order. */
export function withLines(symbols: UnlinedSymbol[], starts: readonly number[]): StructureSymbol[] {
  return symbols
    .map((s) => ({ ...s, start_line: lineAt(starts, s.start), end_line: lineAt(starts, Math.max(s.start, s.end - 1)) }))
    .sort((a, b) => a.start - b.start || b.end - a.end);
}
