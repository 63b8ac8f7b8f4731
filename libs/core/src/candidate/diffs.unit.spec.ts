import fc from 'fast-check';
import { myers, splitLines, unifiedDiff } from './line-diff';
import { semanticChanges } from './semantic-diff';
import { planOperations } from './plan-operations';
import { replayOperations } from './target-record';

function lcsDistance(a: string[], b: string[]): number {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) dp[i][j] = a[i] === b[j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
  return a.length + b.length - 2 * dp[0][0];
}

function applyScript(a: string[], b: string[], ops: string[]): string[] {
  const out: string[] = [];
  let x = 0;
  let y = 0;
  for (const op of ops) {
    if (op === '=') {
      expect(a[x]).toBe(b[y]);
      out.push(a[x++]);
      y++;
    } else if (op === '-') x++;
    else out.push(b[y++]);
  }
  return out;
}

const lines = fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 12 });

describe('line diff (Myers)', () => {
  it('finds a shortest edit script that turns a into b (brute-force LCS as the oracle)', () => {
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const ops = myers(a, b, 1000)!;
        expect(applyScript(a, b, ops)).toEqual(b);
        expect(ops.filter((o) => o !== '=').length).toBe(lcsDistance(a, b));
      }),
    );
  });

  it('renders unified hunks with context and bounds them', () => {
    const before = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const after = before.replace('line 5\n', 'line five\n').replace('line 25\n', '');
    const d = unifiedDiff(before, after, { context: 2, maxHunkLines: 4, maxHunks: 1, maxEditDistance: 100 });
    expect(d.hunks).toHaveLength(1);
    expect(d.omitted_hunks).toBe(1);
    expect(d.hunks[0]).toMatchObject({ old_start: 4, old_lines: 5, new_start: 4, new_lines: 5, lines: [' line 3', ' line 4', '-line 5', '+line five'], omitted_lines: 2 });
    expect(unifiedDiff('a\nb\n', 'c\nd\n', { context: 1, maxHunkLines: 10, maxHunks: 5, maxEditDistance: 1 }).approximate).toBe(true);
    expect(splitLines('')).toEqual([]);
  });
});

describe('semantic changes', () => {
  it('tracks operations into changed spans whose before/after rebuild the result from the base', () => {
    const words = fc.array(fc.constantFrom('x', 'y', 'zz', '😀', '\n'), { minLength: 1, maxLength: 10 }).map((w) => w.join(''));
    fc.assert(
      fc.property(words, fc.array(fc.tuple(fc.nat(20), fc.nat(4), words), { minLength: 1, maxLength: 6 }), (base, edits) => {
        const T = 't';
        let text = base;
        const ops = edits.map(([at, len, replace]) => {
          const cps = Array.from(text);
          const start = Math.min(at, cps.length);
          const end = Math.min(start + len, cps.length);
          const op = { kind: 'span', target_file_id: T, start, end, expected_text: cps.slice(start, end).join(''), replace };
          text = [...cps.slice(0, start), replace, ...cps.slice(end)].join('');
          return op;
        });
        const plan = planOperations(1, ops, new Map([[T, base]]));
        if (!plan.ok) throw new Error(plan.refusal.message);
        const resolved = plan.targets.get(T)!.resolved;
        expect(replayOperations(base, resolved)).toBe(text);
        const changes = semanticChanges(base, text, resolved);
        let rebuilt = Array.from(base);
        for (const c of [...changes].reverse()) rebuilt = [...rebuilt.slice(0, c.base_start), ...Array.from(c.after), ...rebuilt.slice(c.base_end)];
        expect(rebuilt.join('')).toBe(text);
        for (const c of changes) expect(c.before).not.toBe(c.after);
      }),
    );
  });

  it('attributes each change to the operations that wrote it and flags normalized text', () => {
    const plan = planOperations(1, [
      { kind: 'edit', target_file_id: 't', match: 'beta', replace: 'b\r\nb' },
      { kind: 'edit', target_file_id: 't', match: 'gamma', replace: 'g' },
    ], new Map([['t', 'alpha beta gamma\n']]));
    if (!plan.ok) throw new Error('refused');
    const changes = semanticChanges('alpha beta gamma\n', plan.targets.get('t')!.text, plan.targets.get('t')!.resolved, (ref) => ref.index === 0);
    expect(changes).toEqual([
      expect.objectContaining({ change: 'modified', before: 'eta', after: '\nb', operations: [{ candidate_version: 1, index: 0 }], expected: false }),
      expect.objectContaining({ change: 'removed', before: 'amma', after: '', operations: [{ candidate_version: 1, index: 1 }], expected: true }),
    ]);
  });
});
