import { toCanonicalLf } from '../text/canonical-text';
import { nearMissThreshold } from './banded-levenshtein';
import { codesOf } from './code-point-array';
import { MAX_NEAR_MISSES, NEAR_MISS_SCAN_CODE_POINTS } from './near-misses';

/**
 * The unpruned, unbanded near-miss search: for every window start, one full Levenshtein table
 * against the next m + 1 code points, then a sort and a greedy pass. It is the oracle for the
 * property tests and the baseline of bench/near-misses.bench.ts; nothing in production calls it.
 */

export interface ReferenceWindow {
  start: number;
  end: number;
  distance: number;
}

export interface ReferenceNearMisses {
  windows: ReferenceWindow[];
  /** A further non-overlapping window qualified. */
  more: boolean;
  /** Cells of the full tables, for the benchmark's report. */
  cells: number;
}

/** Window starts in [0, startLimit) (default: all) of the first NEAR_MISS_SCAN_CODE_POINTS code points. */
export function referenceNearMisses(buffer: string, query: string, startLimit = Number.POSITIVE_INFINITY): ReferenceNearMisses {
  const text = codesOf(buffer).subarray(0, NEAR_MISS_SCAN_CODE_POINTS);
  const q = codesOf(toCanonicalLf(query));
  const m = q.length;
  const threshold = nearMissThreshold(m);
  const qualifying: ReferenceWindow[] = [];
  const row = new Int32Array(m + 2);
  const lastRow = new Int32Array(m + 2);
  let cells = 0;
  for (let start = 0; start < Math.min(startLimit, text.length); start++) {
    const columns = Math.min(m + 1, text.length - start);
    fullTable(q, text, start, columns, row, lastRow);
    cells += (m + 1) * (columns + 1);
    for (let length = Math.max(1, m - 1); length <= Math.min(m + 1, columns); length++) {
      const distance = lastRow[length];
      if (distance >= 1 && distance <= threshold) qualifying.push({ start, end: start + length, distance });
    }
  }
  qualifying.sort((a, b) => a.distance - b.distance || a.start - b.start || a.end - b.end);
  const windows: ReferenceWindow[] = [];
  for (const w of qualifying) {
    if (windows.some((c) => w.start < c.end && c.start < w.end)) continue;
    if (windows.length === MAX_NEAR_MISSES) return { windows, more: true, cells };
    windows.push(w);
  }
  return { windows, more: false, cells };
}

/** lastRow[j] = lev(query, text[start, start + j)) for j in 0..columns. */
function fullTable(q: Int32Array, text: Int32Array, start: number, columns: number, row: Int32Array, lastRow: Int32Array): void {
  for (let j = 0; j <= columns; j++) lastRow[j] = j;
  for (let i = 1; i <= q.length; i++) {
    const code = q[i - 1];
    let left = i;
    row[0] = i;
    for (let j = 1; j <= columns; j++) {
      let best = lastRow[j - 1] + (code === text[start + j - 1] ? 0 : 1);
      const up = lastRow[j] + 1;
      if (up < best) best = up;
      if (left + 1 < best) best = left + 1;
      row[j] = best;
      left = best;
    }
    lastRow.set(row.subarray(0, columns + 1));
  }
}

/** Textbook Levenshtein distance between two code-point sequences (the oracle for the banded wave). */
export function levenshtein(a: readonly string[], b: readonly string[]): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1), prev[j]! + 1, row[j - 1]! + 1);
    prev = row;
  }
  return prev[b.length]!;
}
