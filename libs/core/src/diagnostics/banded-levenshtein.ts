/**
 * Exact, banded code-point Levenshtein distances for near-miss windows, as a Landau–Vishkin
 * diagonal wave.
 *
 * One evaluation anchors the query (m code points) at a window start s and answers, in one pass,
 * the three windows that start there: lengths m - 1, m and m + 1. Row i is the query prefix of
 * length i, column j the text prefix b[s, s + j), and diagonal d = j - i. Window length m + δ ends
 * at cell (m, m + δ), δ ∈ {-1, 0, 1}.
 *
 * Why band_radius = floor((threshold + 1) / 2) is exact here. Every insertion or deletion moves an
 * alignment path by one diagonal, so a path through a cell on diagonal d that ends on diagonal δ
 * costs at least |d| + |δ - d| ≥ 2|d| - |δ| ≥ 2|d| - 1. A path of cost ≤ threshold therefore never
 * leaves |d| ≤ floor((threshold + 1) / 2) = band_radius. Restricting the dynamic program to that
 * band only removes paths, so a banded value is never below the true distance, and it equals the
 * true distance whenever that is ≤ threshold: the classification and the distance are exact. The
 * radius holds because the band is centred on diagonal 0 at the window start and one evaluation
 * serves all three lengths; floor(threshold / 2) would do for length m alone (2|d| ≤ threshold),
 * and the extra half step is exactly what the end diagonals δ = ±1 need.
 *
 * The wave: F[e][d] is the furthest row reached on diagonal d with at most e edits. Along a
 * diagonal the banded values never decrease and neighbouring cells differ by at most one, so the
 * greedy furthest-reaching rule of Landau and Vishkin holds inside the band, and the window of
 * length m + δ has distance e exactly when e is the first wave with F[e][δ] ≥ m.
 */

export const MAX_NEAR_MISS_THRESHOLD = 4;

/** min(4, max(1, floor(queryChars / 4))). */
export function nearMissThreshold(queryChars: number): number {
  return Math.min(MAX_NEAR_MISS_THRESHOLD, Math.max(1, Math.floor(queryChars / 4)));
}

/** floor((threshold + 1) / 2): the smallest radius around diagonal 0 that is exact (see above). */
export function bandRadius(threshold: number): number {
  return Math.floor((threshold + 1) / 2);
}

const UNREACHED = -(1 << 30);

/**
 * Reusable evaluator over one query and one code-point text. After `evaluate(start)`,
 * `distances[δ + 1]` holds the distance of the window [start, start + m + δ), or threshold + 1 when
 * that window does not exist (non-positive length, past the text end) or is farther than the
 * threshold; `reachedRow` is the furthest query row any band diagonal reached (at most m).
 */
export class DiagonalWave {
  readonly distances = new Int32Array(3);
  reachedRow = 0;
  private front: Int32Array;
  private next: Int32Array;
  private readonly centre: number;

  constructor(
    private readonly query: Int32Array,
    private readonly text: Int32Array,
    readonly threshold: number,
    readonly radius: number,
  ) {
    // Diagonals -radius..radius plus one sentinel on each side, which stays UNREACHED.
    this.front = new Int32Array(2 * radius + 3);
    this.next = new Int32Array(2 * radius + 3);
    this.centre = radius + 1;
  }

  /** Band cells this evaluation is charged for: max(1, min(m, reached_row)) * (2 * radius + 1). */
  cells(): number {
    return Math.max(1, Math.min(this.query.length, this.reachedRow)) * (2 * this.radius + 1);
  }

  evaluate(start: number): void {
    const m = this.query.length;
    const k = this.threshold;
    const available = this.text.length - start;
    const columns = Math.min(available, m + 1);
    const distances = this.distances;
    let pending = 0;
    for (let w = 0; w < 3; w++) {
      const length = m - 1 + w;
      const exists = length >= 1 && length <= available;
      distances[w] = exists ? -1 : k + 1;
      if (exists) pending++;
    }
    this.front.fill(UNREACHED);
    this.front[this.centre] = this.slide(start, columns, 0, 0);
    pending -= this.settle(0);
    let e = 0;
    while (pending > 0 && e < k) {
      e++;
      const prev = this.front;
      const cur = this.next;
      cur.fill(UNREACHED);
      const span = Math.min(e, this.radius);
      for (let d = -span; d <= span; d++) {
        const at = d + this.centre;
        let row = prev[at] + 1;
        if (prev[at - 1] > row) row = prev[at - 1];
        if (prev[at + 1] + 1 > row) row = prev[at + 1] + 1;
        if (row < 0) continue;
        const lowest = d < 0 ? -d : 0;
        const limit = Math.min(m, columns - d);
        if (limit < lowest) continue;
        // Past the last row or column, the boundary cell is within e (neighbours differ by ≤ 1).
        if (row > limit) row = limit;
        cur[at] = this.slide(start, columns, d, row);
      }
      this.front = cur;
      this.next = prev;
      pending -= this.settle(e);
    }
    for (let w = 0; w < 3; w++) if (distances[w] < 0) distances[w] = k + 1;
    let reached = 0;
    for (let at = 1; at < this.front.length - 1; at++) if (this.front[at] > reached) reached = this.front[at];
    this.reachedRow = Math.min(m, reached);
  }

  /** Follow diagonal d from `row` while query and text agree. */
  private slide(start: number, columns: number, d: number, row: number): number {
    const m = this.query.length;
    const query = this.query;
    const text = this.text;
    let i = row;
    while (i < m && i + d < columns && query[i] === text[start + i + d]) i++;
    return i;
  }

  /** Record distance e for every pending window whose end cell the current wave reached. */
  private settle(e: number): number {
    let settled = 0;
    for (let w = 0; w < 3; w++) {
      if (this.distances[w] === -1 && this.front[w - 1 + this.centre] >= this.query.length) {
        this.distances[w] = e;
        settled++;
      }
    }
    return settled;
  }
}
