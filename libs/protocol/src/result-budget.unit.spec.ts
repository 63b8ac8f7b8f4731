import fc from 'fast-check';
import { MAX_RESULT_BYTES, sentBytes } from './result-bytes';
import { withinResultBytes } from './result-budget';
import type { AnyAnswer } from './outcome';

const TARGET = '11111111-1111-4111-8111-111111111111';

describe('withinResultBytes: every answer within MAX_RESULT_BYTES as sent', () => {
  it('leaves an answer that fits as it is (the same object)', () => {
    const small = { status: 'ok' as const, text: 'x'.repeat(1000) };
    expect(withinResultBytes(small)).toBe(small);
  });

  it('counts no bytes of a printable ASCII answer whose every unit fits thrice, and it does fit', () => {
    for (const unit of ['a', '"', '\\', '\n']) {
      const text = unit.repeat(Math.floor((MAX_RESULT_BYTES - 4096) / 3 / JSON.stringify(unit).slice(1, -1).length) - 40);
      const answer = { status: 'ok' as const, chunk: text };
      expect(withinResultBytes(answer)).toBe(answer);
      expect(sentBytes(answer)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    }
  });

  it('cuts a target text too large to send, says where, and continues it with palimpsest_read_target', () => {
    const text = '\u0001é𝄞a'.repeat(60_000);
    const r = withinResultBytes({ status: 'ok', target_file_id: TARGET, version: 3, current_content: text, next_actions: [] });
    expect(sentBytes(r)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    const [cut] = r.result_truncated as { path: string; returned: number; total: number }[];
    expect(cut).toMatchObject({ path: '$.current_content', total: [...text].length });
    expect([...text].slice(0, cut.returned).join('')).toBe(r.current_content);
    expect(r.next_actions).toEqual([expect.objectContaining({ operation: 'palimpsest_read_target', params: { target_file_id: TARGET, start: cut.returned } })]);
    expect(r.version).toBe(3);
  });

  it('drops the last elements of a page too large to send, and cuts inside an element that alone is too large', () => {
    const entries = Array.from({ length: 400 }, (_, i) => ({ id: i, detail: '"'.repeat(2000) }));
    const page = withinResultBytes({ status: 'ok', entries });
    expect(sentBytes(page)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expect((page.entries as unknown[]).length).toBeGreaterThan(0);
    expect(page.entries).toEqual(entries.slice(0, (page.entries as unknown[]).length));
    const one = withinResultBytes({ status: 'ok', entries: [{ id: 0, content: '\u0002'.repeat(500_000) }] });
    expect(sentBytes(one)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expect((one.entries as { id: number }[])[0].id).toBe(0);
  });

  it('holds for any mix of large strings and arrays', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('\u0003', 'é', 'a', '"', '😀'), fc.integer({ min: 0, max: 200_000 })), { maxLength: 3 }), (parts) => {
        const answer: AnyAnswer = { status: 'ok', ...Object.fromEntries(parts.map(([c, n], i) => [i % 2 ? `s${i}` : `a${i}`, i % 2 ? c.repeat(n) : Array.from({ length: Math.ceil(n / 1000) }, () => c.repeat(1000))])) };
        expect(sentBytes(withinResultBytes(answer))).toBeLessThanOrEqual(MAX_RESULT_BYTES);
      }),
      { numRuns: 10 },
    );
  });
});
