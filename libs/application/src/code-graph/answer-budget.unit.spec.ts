import fc from 'fast-check';
import { capped, coverageOf, fitAnswer, limitsOf, type Truncation } from './answer-budget';

type Fitted = Record<string, unknown> & { truncation: Truncation; status: string; required_bytes?: number };

const item = fc.record({ id: fc.string({ minLength: 1, maxLength: 40 }), text: fc.string({ maxLength: 200 }) });

describe('answer budget', () => {
  it('keeps every answer within max_bytes, and what it cut is counted, never dropped silently', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 60 }), fc.array(item, { maxLength: 60 }), fc.integer({ min: 256, max: 20_000 }), (a, b, maxBytes) => {
        const limits = limitsOf({ max_bytes: maxBytes });
        const parts = [
          { name: 'nodes', items: a, idOf: (i: unknown) => (i as { id: string }).id },
          { name: 'edges', items: b, idOf: (i: unknown) => (i as { id: string }).id },
        ];
        const answer = fitAnswer<Fitted>({ status: 'ok', snapshot: { id: 'sha256:x', files: 1 } }, parts, limits) as Fitted;
        if (answer.status === 'invalid_argument') {
          expect(answer.required_bytes).toBeGreaterThan(maxBytes);
          const retried = fitAnswer<Fitted>({ status: 'ok', snapshot: { id: 'sha256:x', files: 1 } }, parts, limitsOf({ max_bytes: answer.required_bytes }));
          expect(retried.status).toBe('ok');
          return;
        }
        const bytes = Buffer.byteLength(JSON.stringify(answer));
        expect(bytes).toBeLessThanOrEqual(maxBytes);
        expect(answer.truncation.used.bytes).toBe(bytes);
        for (const [name, all] of [['nodes', a], ['edges', b]] as const) {
          const kept = answer[name] as unknown[];
          const omitted = answer.truncation.omissions.filter((o) => o.part === name).reduce((n, o) => n + o.count, 0);
          expect(kept).toEqual(all.slice(0, kept.length));
          expect(kept.length + omitted).toBe(all.length);
        }
        expect(answer.truncation.truncated).toBe(answer.truncation.omissions.length > 0);
      }),
      { numRuns: 200 },
    );
  });

  it('lowers limits above the maximum and fills the defaults', () => {
    expect(limitsOf({ max_bytes: 10 ** 9, max_depth: 99 })).toEqual({ max_bytes: 4_194_304, max_depth: 16, max_items: 50, max_nodes: 100 });
  });

  it('is complete and exhaustive only without gaps, and lists each gap once', () => {
    expect(coverageOf([])).toEqual({ completeness: 'complete', exhaustive: true, gaps: [] });
    const gap = { reason: 'dynamic_call' as const, site: { path: 'a.ts', line: 1, column: 1 }, detail: 'x' };
    expect(coverageOf([gap, { ...gap }])).toEqual({ completeness: 'partial', exhaustive: false, gaps: [gap] });
    expect(coverageOf([], false).completeness).toBe('unknown');
  });

  it('reports what a cap left out with its count and ids', () => {
    expect(capped([1, 2, 3], 2, 'max_items', 'edges', String)).toEqual({ items: [1, 2], omitted: { reason: 'max_items', part: 'edges', count: 1, node_ids: ['3'] } });
  });
});
