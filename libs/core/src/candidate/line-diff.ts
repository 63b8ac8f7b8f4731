/**
 * A unified diff of two texts by lines (Myers' O(ND) algorithm), with bounded output: at most
 * `maxHunkLines` lines per hunk and `maxHunks` hunks; an edit distance beyond `maxEditDistance`
 * falls back to one replaced block between the common head and tail (marked approximate).
 */

export interface Hunk {
  old_start: number;
  old_lines: number;
  new_start: number;
  new_lines: number;
  lines: string[];
  /** Lines of this hunk left out of `lines` to respect the bound. */
  omitted_lines: number;
}

export interface UnifiedDiff {
  hunks: Hunk[];
  omitted_hunks: number;
  approximate: boolean;
}

export interface DiffBounds {
  context: number;
  maxHunkLines: number;
  maxHunks: number;
  maxEditDistance: number;
}

export const DEFAULT_DIFF_BOUNDS: DiffBounds = { context: 3, maxHunkLines: 200, maxHunks: 100, maxEditDistance: 2000 };

type Op = '=' | '-' | '+';

export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The shortest edit script, or null when it is longer than maxD. trace[d] holds x for k in [-d, d] at k + d. */
export function myers(a: string[], b: string[], maxD: number): Op[] | null {
  const n = a.length;
  const m = b.length;
  const trace: Int32Array[] = [];
  for (let d = 0; d <= Math.min(n + m, maxD); d++) {
    const prev = trace[d - 1];
    const at = (k: number) => prev[k + d - 1];
    const cur = new Int32Array(2 * d + 1);
    for (let k = -d; k <= d; k += 2) {
      let x = d === 0 ? 0 : k === -d || (k !== d && at(k - 1) < at(k + 1)) ? at(k + 1) : at(k - 1) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      cur[k + d] = x;
      if (x >= n && y >= m) {
        trace.push(cur);
        return backtrack(trace, n, m);
      }
    }
    trace.push(cur);
  }
  return null;
}

function backtrack(trace: Int32Array[], n: number, m: number): Op[] {
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const prev = trace[d - 1];
    const at = (k: number) => prev[k + d - 1];
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const afterEdit = down ? prevX : prevX + 1;
    while (x > afterEdit) {
      ops.push('=');
      x--;
    }
    ops.push(down ? '+' : '-');
    x = prevX;
    y = prevX - prevK;
  }
  for (; x > 0; x--) ops.push('=');
  return ops.reverse();
}

function script(a: string[], b: string[], maxD: number): { ops: Op[]; approximate: boolean } {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const found = myers(midA, midB, maxD);
  const middle: Op[] = found ?? [...midA.map((): Op => '-'), ...midB.map((): Op => '+')];
  return { ops: [...Array<Op>(head).fill('='), ...middle, ...Array<Op>(tail).fill('=')], approximate: found === null };
}

export function unifiedDiff(before: string, after: string, bounds: DiffBounds = DEFAULT_DIFF_BOUNDS): UnifiedDiff {
  const a = splitLines(before);
  const b = splitLines(after);
  const { ops, approximate } = script(a, b, bounds.maxEditDistance);
  const hunks: Hunk[] = [];
  let omitted = 0;
  for (const range of changeRanges(ops, bounds.context)) {
    if (hunks.length >= bounds.maxHunks) {
      omitted++;
      continue;
    }
    hunks.push(hunkOf(ops, range, a, b, bounds.maxHunkLines));
  }
  return { hunks, omitted_hunks: omitted, approximate };
}

/** [from, to) ranges of the edit script: each change with its context, ranges closer than 2×context merged. */
function changeRanges(ops: Op[], context: number): [number, number][] {
  const ranges: [number, number][] = [];
  for (let i = 0; i < ops.length; i++) {
    if (ops[i] === '=') continue;
    let j = i;
    while (j < ops.length && ops[j] !== '=') j++;
    const from = Math.max(0, i - context);
    const to = Math.min(ops.length, j + context);
    const last = ranges[ranges.length - 1];
    if (last && from <= last[1]) last[1] = to;
    else ranges.push([from, to]);
    i = j - 1;
  }
  return ranges;
}

function hunkOf(ops: Op[], [from, to]: [number, number], a: string[], b: string[], maxLines: number): Hunk {
  let x = 0;
  let y = 0;
  for (let i = 0; i < from; i++) {
    if (ops[i] !== '+') x++;
    if (ops[i] !== '-') y++;
  }
  const hunk: Hunk = { old_start: x + 1, old_lines: 0, new_start: y + 1, new_lines: 0, lines: [], omitted_lines: 0 };
  for (let i = from; i < to; i++) {
    const op = ops[i];
    const line = op === '+' ? `+${b[y]}` : op === '-' ? `-${a[x]}` : ` ${a[x]}`;
    if (op !== '+') {
      x++;
      hunk.old_lines++;
    }
    if (op !== '-') {
      y++;
      hunk.new_lines++;
    }
    if (hunk.lines.length < maxLines) hunk.lines.push(line);
    else hunk.omitted_lines++;
  }
  return hunk;
}
