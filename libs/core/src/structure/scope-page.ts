import type { CodePointIndex } from '../text/code-points';
import { lineAt } from './symbol-lines';

export interface ScopeBounds {
  scope_start: number;
  scope_end: number;
}

export interface ScopePage {
  /** Relative to scope_start. */
  offset: number;
  max_chars: number;
  /** Absolute code points of the page. */
  start: number;
  end: number;
  text: string;
  truncated: boolean;
  next_offset: number | null;
  next_start: number | null;
  start_line: number;
  end_line: number;
  /** Lines beginning inside the page: 1-based line number and absolute code-point start. */
  line_starts?: { line: number; start: number }[];
}

/** One page of an observed scope: `offset` must lie in [0, scope length) (0 for an empty scope). */
export function scopePage(
  index: CodePointIndex,
  starts: readonly number[],
  bounds: ScopeBounds,
  offset: number,
  maxChars: number,
  includeLineStarts: boolean,
): ScopePage {
  const start = bounds.scope_start + offset;
  const end = Math.min(bounds.scope_end, start + maxChars);
  const truncated = end < bounds.scope_end;
  const page: ScopePage = {
    offset,
    max_chars: maxChars,
    start,
    end,
    text: index.slice(start, end),
    truncated,
    next_offset: truncated ? end - bounds.scope_start : null,
    next_start: truncated ? end : null,
    start_line: lineAt(starts, start),
    end_line: lineAt(starts, Math.max(start, end - 1)),
  };
  if (includeLineStarts) page.line_starts = lineStartsWithin(starts, start, end);
  return page;
}

function lineStartsWithin(starts: readonly number[], start: number, end: number): { line: number; start: number }[] {
  const out: { line: number; start: number }[] = [];
  for (let i = lineAt(starts, start) - 1; i < starts.length && starts[i] < end; i++) {
    if (starts[i] >= start) out.push({ line: i + 1, start: starts[i] });
  }
  return out;
}
