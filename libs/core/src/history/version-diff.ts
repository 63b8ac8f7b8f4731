import { structuredPatch } from 'diff';
import { codePointLength } from '../text/code-points';

/** One hunk of a unified diff, with its lines (' ', '-', '+' prefixed) and where it sits in both texts. */
export interface DiffHunk {
  /** Unified-diff header: @@ -old_start,old_lines +new_start,new_lines @@ (one-based lines). */
  header: string;
  old_start_line: number;
  old_lines: number;
  new_start_line: number;
  new_lines: number;
  /** The hunk's span in code points of each text, end exclusive (context lines included). */
  old_start: number;
  old_end: number;
  new_start: number;
  new_end: number;
  lines: string[];
}

export interface DiffPage {
  hunks: DiffHunk[];
  total_hunks: number;
  /** Pass as start_hunk for the next page; null when this page ends the diff. */
  next_hunk: number | null;
  truncated: boolean;
}

export const DIFF_DEFAULT_CHARS = 20_000;
export const DIFF_MAX_CHARS = 100_000;
export const DIFF_CONTEXT_LINES = 3;

/** Code-point offset where each one-based line starts, plus the text's length at the end. */
function lineOffsets(text: string): number[] {
  const out = [0];
  let cp = 0;
  for (const ch of text) {
    cp++;
    if (ch === '\n') out.push(cp);
  }
  if (out[out.length - 1] !== cp) out.push(cp);
  return out;
}

function span(offsets: number[], start: number, count: number): [number, number] {
  // A hunk of zero lines on one side sits before line `start + 1` (diff's convention: start is the line before).
  const first = count === 0 ? start : start - 1;
  const from = offsets[Math.min(first, offsets.length - 1)]!;
  const to = offsets[Math.min(first + count, offsets.length - 1)]!;
  return [from, to];
}

/**
 * The unified diff of two texts, hunks from `startHunk` on (zero-based) within `maxChars` code points of
 * their lines (at least one hunk per page, so a page always moves on). Lines as the `diff` package makes
 * them, without their LF; "\ No newline at end of file" marks a last line without one.
 */
export function diffTexts(oldText: string, newText: string, startHunk = 0, maxChars = DIFF_DEFAULT_CHARS): DiffPage {
  const patch = structuredPatch('a', 'b', oldText, newText, undefined, undefined, { context: DIFF_CONTEXT_LINES });
  const oldOffsets = lineOffsets(oldText);
  const newOffsets = lineOffsets(newText);
  const all = patch.hunks;
  const hunks: DiffHunk[] = [];
  let budget = Math.min(Math.max(1, maxChars), DIFF_MAX_CHARS);
  let next = startHunk;
  while (next < all.length) {
    const h = all[next]!;
    const cost = h.lines.reduce((n, l) => n + codePointLength(l) + 1, 0);
    if (hunks.length > 0 && cost > budget) break;
    budget -= cost;
    const [oldStart, oldEnd] = span(oldOffsets, h.oldStart, h.oldLines);
    const [newStart, newEnd] = span(newOffsets, h.newStart, h.newLines);
    hunks.push({
      header: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`,
      old_start_line: h.oldStart, old_lines: h.oldLines, new_start_line: h.newStart, new_lines: h.newLines,
      old_start: oldStart, old_end: oldEnd, new_start: newStart, new_end: newEnd, lines: h.lines,
    });
    next++;
    if (budget <= 0) break;
  }
  const more = next < all.length;
  return { hunks, total_hunks: all.length, next_hunk: more ? next : null, truncated: more };
}
