import type { StructureSymbol } from './structure.port';

/** Code-point offsets of line starts in a canonical LF text (line 1 starts at 0). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  let cp = 0;
  for (let i = 0; i < text.length; i++, cp++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    if (code === 10) starts.push(cp + 1);
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
