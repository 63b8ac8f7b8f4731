import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { createAppHarness, type AppHarness } from '../test-support/app-harness';

const H0 = 'b22ebf774cb2d9b12dc23d13ac860581d994ab579f4fb470b6f79d0b43a15ff2';

describe(`rejection diagnostics end to end on ${describeBackend}`, () => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await createAppHarness();
  });
  afterAll(() => h.dispose());

  it('reproduces the seed alpha beta alpha rejection field by field', async () => {
    const id = await h.target('alpha beta alpha\r\n');
    const r = await h.call('palimpsest_submit_edits', {
      target_file_id: id, intent: 'Rename alpha', expected_target_version: 0, client_request_id: 'req-001',
      edits: [{ match: 'alpha', replace: 'gamma' }],
    });
    expect(r).toMatchObject({
      status: 'rejected', target_file_id: id, failure_reason: 'match_ambiguous',
      failure_detail: 'MATCH text appears multiple times without disambiguation.', failed_change_id: 'chg_001',
      before_hash: H0, after_hash: null, current_version: 0, current_hash: H0, deduplicated: false, client_request_id: 'req-001',
      validity: { protocol_valid: true, transaction_valid: false, task_correct: 'not_evaluated', semantic: 'not_evaluated' },
    });
    expect(r.diagnostic).toMatchObject({
      format: 'patchdiff-tx/1', occurrence_count: 2, requires_new_submission: true,
      validation_stage: 'transaction_applicability',
      exact_candidates: {
        kind: 'exact_occurrences', occurrence_count: 2, returned_count: 2, truncated: false, next_occurrence_index: null,
        buffer_stage: 'canonical_target', prior_changes: 0, observed_target_version: 0, observed_target_hash: H0,
        candidates: [
          { occurrence_index: 1, start: 0, end: 5, before: '', match_preview: 'alpha', match_truncated: false, after: ' beta alpha\n' },
          { occurrence_index: 2, start: 11, end: 16, before: 'alpha beta ', match_preview: 'alpha', match_truncated: false, after: '\n' },
        ],
      },
    });
    expect(r.diagnostic.failure_context).toEqual({
      available: true, unavailable_reason: null, selection: 'prefix', buffer_stage: 'canonical_target', prior_changes: 0,
      start: 0, end: 17, total_chars: 17, text: 'alpha beta alpha\n', truncated: false, observed_target_version: 0, observed_target_hash: H0,
    });
    expect(r.current_context).toEqual({
      available: false, unavailable_reason: 'same_as_failure_context', selection: null, buffer_stage: null, prior_changes: null,
      start: null, end: null, total_chars: null, text: null, truncated: null, observed_target_version: null, observed_target_hash: null,
    });
    expect(r.retryable).toBe('after_refresh');
    expect(r.next_actions.map((a: any) => a.params.edits[0].occurrence_index)).toEqual([1, 2]);
    expect(r.next_actions[0]).toMatchObject({
      operation: 'palimpsest_submit_edits',
      reason: expect.stringContaining('line 1, column 1'),
      params: {
        target_file_id: id, intent: 'Rename alpha', expected_target_version: 0, client_request_id: `req-001~retry-${r.attempt_id.slice(0, 8)}`,
        parent_attempt_id: r.attempt_id, attempt: 2, edits: [{ match: 'alpha', replace: 'gamma', occurrence_index: 1 }],
      },
    });
    expect(r.next_actions[1].reason).toContain('line 1, column 12');
  });

  it('recovers a keyed rejection with the stored diagnostic unchanged and a fresh current_context', async () => {
    const id = await h.target('alpha beta alpha\n');
    const args = { target_file_id: id, intent: 'x', expected_target_version: 0, client_request_id: 'k', edits: [{ match: 'alpha', replace: 'g' }] };
    const first = await h.call('palimpsest_submit_edits', args);
    await h.call('palimpsest_submit_edits', { target_file_id: id, intent: 'y', expected_target_version: 0, edits: [{ match: 'beta', replace: 'BETA' }] });
    const again = await h.call('palimpsest_submit_edits', args);
    expect(again.deduplicated).toBe(true);
    expect(again.diagnostic).toEqual(first.diagnostic);
    expect(again.current_context).toMatchObject({ available: true, text: 'alpha BETA alpha\n', observed_target_version: 1 });
    expect(again.current_version).toBe(1);
  });

  it('match_absent persists the query and returns near misses only in the response', async () => {
    const id = await h.target('The quick brown fox jumps over the lazy dog.\n');
    const r = await h.call('palimpsest_submit_edits', {
      target_file_id: id, intent: 'x', expected_target_version: 0, client_request_id: 'nm', edits: [{ match: 'quick brwn fox', replace: 'slow fox' }],
    });
    expect(r.failure_reason).toBe('match_absent');
    expect(r.diagnostic.near_miss_query).toEqual({ near_miss_query: 'quick brwn fox' });
    expect(r.diagnostic.near_misses).toMatchObject({ scan_source: 'failing_buffer', candidates: [{ start: 4, end: 19, distance: 1 }] });
    expect(r.next_actions.map((a: any) => a.operation)).toContain('palimpsest_find_occurrences');
    const stored = await h.testDb.db.query(`SELECT diagnostic FROM attempts WHERE attempt_id = $1`, [r.attempt_id]);
    expect(stored.rows[0].diagnostic.near_misses).toBeUndefined();
    const recovered = await h.call('palimpsest_submit_edits', {
      target_file_id: id, intent: 'x', expected_target_version: 0, client_request_id: 'nm', edits: [{ match: 'quick brwn fox', replace: 'slow fox' }],
    });
    expect(recovered.diagnostic.near_misses).toMatchObject({ scan_source: 'stored_failure_context', candidates: [{ start: 4, end: 19 }] });
  });

  it('a later-change failure shows the intermediate buffer, and consumed matches omit near misses', async () => {
    const id = await h.target('one two three\n');
    const r = await h.call('palimpsest_submit_edits', {
      target_file_id: id, intent: 'x', expected_target_version: 0,
      edits: [{ match: 'one two', replace: 'ONE' }, { match: 'two', replace: '2' }],
    });
    expect(r.failure_reason).toBe('sequential_match_invalid');
    expect(r.diagnostic.failure_context).toMatchObject({ buffer_stage: 'intermediate_buffer', prior_changes: 1, text: 'ONE three\n' });
    expect(r.diagnostic.near_misses).toEqual({ omission_reason: 'sequential_match_consumed' });
    expect(r.current_context).toMatchObject({ available: true, buffer_stage: 'canonical_target', text: 'one two three\n' });
  });

  it('every rejection carries retryable and a next action naming a call', async () => {
    const id = await h.target('abc\n');
    for (const args of [
      { expected_target_version: 5, edits: [{ match: 'abc', replace: 'x' }] },
      { expected_target_version: 0, edits: [{ match: 'abc', replace: 'x', bogus: 1 }] },
      { expected_target_version: 0, edits: [{ match: 'zzz', replace: 'x' }] },
    ]) {
      const r = await h.call('palimpsest_submit_edits', { target_file_id: id, intent: 'x', ...args });
      expect(r.status).toBe('rejected');
      expect(['after_refresh', 'none']).toContain(r.retryable);
      expect(r.next_actions.length).toBeGreaterThan(0);
      expect(r.next_actions[0].operation).toMatch(/^palimpsest_/);
    }
  });
});
