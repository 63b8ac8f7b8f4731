import { codePointToUnit, isBmpOnly } from '../text/code-points';

/**
 * The exact text a near miss stands for, chosen so that resending it as the match is the edit the
 * caller meant. The near-miss scan ranks windows by Levenshtein distance, which counts a swapped
 * pair of letters as two edits: for "delat" it prefers "delt" (one deletion) to "delta", and a
 * match of "delt" would leave the "a" behind. Here windows around the near miss are ranked by
 * optimal string alignment distance (a transposition is one edit), then by how close their length
 * is to the query's; the correction is offered only when one window is best.
 */
const SLACK = 2;

/** Optimal string alignment distance between two code-point arrays. */
export function osaDistance(a: readonly string[], b: readonly string[]): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      row.push(d);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

/** The unique best window of `buffer` for `query` near the code-point range [start, end), or null. */
export function correctedNearMiss(buffer: string, query: string, start: number, end: number): string | null {
  const q = Array.from(query);
  const from = Math.max(0, start - SLACK);
  const bmp = isBmpOnly(buffer);
  const region = Array.from(buffer.slice(codePointToUnit(buffer, from, bmp), codePointToUnit(buffer, end + 2 * SLACK, bmp)));
  let best: { rank: [number, number]; text: string } | null = null;
  let tied = false;
  for (let s = 0; s <= Math.min(region.length, start - from + SLACK); s++) {
    for (let len = Math.max(1, q.length - SLACK); len <= q.length + SLACK && s + len <= region.length; len++) {
      const window = region.slice(s, s + len);
      const rank: [number, number] = [osaDistance(window, q), Math.abs(len - q.length)];
      const order = best === null ? -1 : rank[0] - best.rank[0] || rank[1] - best.rank[1];
      if (order < 0) {
        best = { rank, text: window.join('') };
        tied = false;
      } else if (order === 0 && window.join('') !== best!.text) tied = true;
    }
  }
  if (best === null || tied || best.rank[0] === 0 || best.rank[0] > Math.max(1, Math.floor(q.length / 4))) return null;
  return best.text;
}

/** A near miss as the scan reports it (code points, end exclusive). */
export interface NearMissSpan {
  start: number;
  end: number;
  distance: number;
}

/**
 * The one correction a match_absent rejection offers, for every caller (tx/1 retries, edit_file): the
 * exact text of the single closest near miss, when one is closest and its window is unambiguous.
 */
export function closestCorrection(buffer: string, query: string, near: readonly NearMissSpan[]): { text: string; start: number } | null {
  if (!near.length) return null;
  const best = Math.min(...near.map((n) => n.distance));
  const closest = near.filter((n) => n.distance === best);
  if (closest.length !== 1) return null;
  const n = closest[0]!;
  const text = correctedNearMiss(buffer, query, n.start, n.end);
  return text === null ? null : { text, start: n.start };
}
