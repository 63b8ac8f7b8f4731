import { MAX_RESULT_BYTES, sentBytes } from '@palimpsest/protocol/result-bytes';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { createAppHarness, type AppHarness } from '../test-support/app-harness';

/** An entry of a summary page carries what an agent acts on, and nothing else. */
const SUMMARY_FIELDS = ['attempt_id', 'log_sequence', 'status', 'before_version', 'after_version', 'code', 'client_request_id', 'source', 'intent', 'summary', 'created_at'];

describe(`the attempt log's byte budgets on ${describeBackend}`, () => {
  let h: AppHarness;
  let id: string;
  const ATTEMPTS = 200;

  beforeAll(async () => {
    h = await createAppHarness();
    // Two hundred matches of one word: every ambiguous edit records a large diagnostic (each match's context).
    id = await h.target(Array.from({ length: 200 }, (_, i) => `line ${i}: alpha beta gamma delta ${'x'.repeat(40)}\n`).join(''));
    for (let i = 0; i < ATTEMPTS; i++) {
      const r = await h.call('palimpsest_submit_edits', {
        target_file_id: id, intent: `rename alpha, try ${i} ${'because '.repeat(40)}`, expected_target_version: 0, edits: [{ match: 'alpha', replace: 'omega' }],
      });
      expect(r.failure_reason).toBe('match_ambiguous');
    }
  }, 120_000);
  afterAll(() => h.dispose());

  it('summarizes entries by default: a 50-entry page of rejections stays within 25 KB (a detailed one is more than four times that)', async () => {
    const page = await h.call('palimpsest_get_attempt_log', { target_file_id: id });
    expect(page.entries).toHaveLength(50);
    for (const entry of page.entries) expect(Object.keys(entry).sort()).toEqual([...SUMMARY_FIELDS].sort());
    expect(page.entries[0]).toMatchObject({ status: 'rejected', code: 'match_ambiguous', before_version: 0, after_version: null, summary: expect.stringMatching(/^rejected at version 0: /) });
    expect([...page.entries[0].intent].length).toBeLessThanOrEqual(100);
    expect(Buffer.byteLength(JSON.stringify(page))).toBeLessThan(25_000);
    const full = await h.call('palimpsest_get_attempt_log', { target_file_id: id, detail: true });
    expect(full.entries[0]).toMatchObject({ attempt_id: page.entries[0].attempt_id, failure_reason: 'match_ambiguous', diagnostic: expect.any(Object), protocol_version: 'patchdiff-tx/1' });
    expect(Buffer.byteLength(JSON.stringify(full))).toBeGreaterThan(4 * Buffer.byteLength(JSON.stringify(page)));
  });

  it('bounds a detailed page by the bytes it sends, continuing with next_sequence until every attempt is seen', async () => {
    const seen: string[] = [];
    let before: number | null = null;
    let pages = 0;
    for (;;) {
      const page: Record<string, any> = await h.call('palimpsest_get_attempt_log', { target_file_id: id, limit: 200, detail: true, include_content: true, before_sequence: before });
      expect(sentBytes(page)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
      seen.push(...page.entries.map((e: { attempt_id: string }) => e.attempt_id));
      pages++;
      if (!page.has_more) break;
      before = page.next_sequence;
    }
    expect(new Set(seen).size).toBe(ATTEMPTS);
    expect(pages).toBeGreaterThan(1);
  });
});
