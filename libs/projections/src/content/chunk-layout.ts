import type { ChunkSplice } from '@palimpsest/core/text/chunked-text';

/**
 * A target's text is stored in chunks so that an edit rewrites the chunks it touches, not the document:
 * the cost of a commit follows the delta. Chunks are UTF-16 slices that never split a surrogate pair
 * (each must be valid PostgreSQL text on its own). The layout is physical; the text is their concatenation.
 */

export const CHUNK_UNITS = 32_768;

/** Replace old chunks [from, from + deleteCount) by `insert`: the fold's splice, or a plan made here. */
export type ChunkRewrite = ChunkSplice;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Pieces of at most `size` units; a cut that would split a surrogate pair moves one unit back. */
export function splitIntoChunks(text: string, size = CHUNK_UNITS): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + size, text.length);
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

/** Known-unchanged UTF-16 units at each end of the text (from the runtime); chunks inside them are not compared. */
export interface UnchangedEnds {
  unchangedPrefix: number;
  unchangedSuffix: number;
}

/** The chunks an edit must rewrite: unchanged leading and trailing chunks are kept as they are. */
export function planRewrite(
  old: readonly string[],
  next: string,
  size = CHUNK_UNITS,
  hint: UnchangedEnds | null = null,
): ChunkRewrite | null {
  const prefix = hint?.unchangedPrefix ?? 0;
  const suffixStart = next.length - (hint?.unchangedSuffix ?? 0);
  let a = 0;
  let offset = 0;
  while (a < old.length && offset + old[a].length <= prefix) {
    offset += old[a].length;
    a++;
  }
  while (a < old.length && offset + old[a].length <= next.length && next.startsWith(old[a], offset)) {
    offset += old[a].length;
    a++;
  }
  const oldTotal = old.reduce((n, c) => n + c.length, 0);
  if (a === old.length && offset === next.length && oldTotal === next.length) return null;
  let b = old.length - 1;
  let tail = next.length;
  while (b >= a && tail - old[b].length >= Math.max(offset, suffixStart)) {
    tail -= old[b].length;
    b--;
  }
  while (b >= a && tail - old[b].length >= offset && next.endsWith(old[b], tail)) {
    tail -= old[b].length;
    b--;
  }
  const middle = next.slice(offset, tail);
  const deleteCount = b - a + 1;
  const insert = deleteCount === 1 && middle.length > 0 && middle.length <= 2 * size ? [middle] : splitIntoChunks(middle, size);
  return { from: a, deleteCount, insert };
}

export function applyRewrite(old: readonly string[], rewrite: ChunkRewrite | null): string[] {
  if (!rewrite) return [...old];
  return [...old.slice(0, rewrite.from), ...rewrite.insert, ...old.slice(rewrite.from + rewrite.deleteCount)];
}
