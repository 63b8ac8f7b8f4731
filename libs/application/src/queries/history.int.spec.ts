import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { createAppHarness, type AppHarness } from '../test-support/app-harness';

describe(`attempt log, manifest ledger and save on ${describeBackend}`, () => {
  let h: AppHarness;
  let id: string;

  /** Ten accepted edits (versions 1..10), with a rejection after the fifth. */
  async function history() {
    for (let v = 0; v < 10; v++) {
      const r = await h.call('palimpsest_submit_edits', {
        target_file_id: id, intent: `step ${v}`, expected_target_version: v, client_request_id: `s-${v}`,
        edits: [{ match: `<${v}>`, replace: `<${v + 1}>`, rationale: v % 2 ? `odd ${v}` : null }],
      });
      expect(r.status).toBe('accepted');
      if (v === 4) {
        const stale = await h.call('palimpsest_submit_edits', {
          target_file_id: id, intent: 'stale', expected_target_version: 0, edits: [{ match: 'x', replace: 'y' }],
        });
        expect(stale.failure_reason).toBe('target_version_mismatch');
      }
    }
  }

  beforeAll(async () => {
    h = await createAppHarness();
    id = await h.target('counter <0>\n');
    await history();
  });
  afterAll(() => h.dispose());

  it('pages the attempt log newest-first with an exclusive cursor', async () => {
    const first = await h.call('palimpsest_get_attempt_log', { target_file_id: id, limit: 3 });
    expect(first.entries.map((e: any) => e.intent)).toEqual(['step 9', 'step 8', 'step 7']);
    expect(first.has_more).toBe(true);
    expect(first.next_sequence).toBe(first.entries[2].log_sequence);
    const second = await h.call('palimpsest_get_attempt_log', { target_file_id: id, limit: 3, before_sequence: first.next_sequence });
    expect(second.entries.map((e: any) => e.intent)).toEqual(['step 6', 'step 5', 'stale']);
    const all = await h.call('palimpsest_get_attempt_log', { target_file_id: id, limit: 500 });
    expect(all.entries).toHaveLength(11);
    expect(all).toMatchObject({ has_more: false, next_sequence: null });
  });

  it('filters by status, request key and content hash', async () => {
    const rejected = await h.call('palimpsest_get_attempt_log', { target_file_id: id, status: 'rejected', detail: true });
    expect(rejected.entries).toHaveLength(1);
    expect(rejected.entries[0]).toMatchObject({ failure_reason: 'target_version_mismatch', validation_stage: 'PRECONDITION_GUARD' });
    const keyed = await h.call('palimpsest_get_attempt_log', { target_file_id: id, client_request_id: 's-3', detail: true });
    expect(keyed.entries.map((e: any) => e.after_version)).toEqual([4]);
    const byHash = await h.call('palimpsest_get_attempt_log', { target_file_id: id, content_hash: keyed.entries[0].attempt_content_hash });
    expect(byHash.entries.map((e: any) => e.attempt_id)).toEqual([keyed.entries[0].attempt_id]);
  });

  it('includes submitted records on request', async () => {
    const page = await h.call('palimpsest_get_attempt_log', { target_file_id: id, limit: 2, include_content: true, detail: true });
    const record = JSON.parse(page.entries[0].attempt_content);
    expect(record).toMatchObject({ protocol_version: 'patchdiff-tx/1', intent: 'step 9' });
    expect(page.entries[0].attempt_content_omitted).toBeNull();
  });

  it('refuses bad history arguments before any work', async () => {
    for (const bad of [{ limit: 0 }, { limit: true }, { limit: 1.5 }, { before_sequence: -1 }, { include_content: 'yes' }]) {
      const r = await h.call('palimpsest_get_attempt_log', { target_file_id: id, ...bad });
      expect(r).toMatchObject({ status: 'invalid_argument' });
    }
    const missing = await h.call('palimpsest_get_attempt_log', { target_file_id: '00000000-0000-4000-8000-000000000000' });
    expect(missing).toMatchObject({ status: 'not_found', entries: [], has_more: false, next_sequence: null });
  });

  it('pages the ledger oldest-first within the newest page', async () => {
    const page = await h.call('palimpsest_get_manifest_ledger', { target_file_id: id, limit: 3 });
    expect(page.entries.map((e: any) => e.after_version)).toEqual([8, 9, 10]);
    expect(page.next_sequence).toBe(page.entries[0].ledger_sequence);
    const older = await h.call('palimpsest_get_manifest_ledger', { target_file_id: id, limit: 3, before_sequence: page.next_sequence });
    expect(older.entries.map((e: any) => e.after_version)).toEqual([5, 6, 7]);
    const odd = page.entries.find((e: any) => e.after_version === 10);
    expect(odd).toMatchObject({ rationale: 'odd 9', intent: 'odd 9', transaction_intent: 'step 9', origin: 'typed', change_id: 'chg_001' });
    expect(odd.derived).toMatchObject({ change_index: 1, matched_chars: 3, replacement_chars: 4 });
  });

  it('save rotates the cycle: the default ledger view starts empty, previous cycles stay reachable', async () => {
    const stale = await h.call('palimpsest_save', { target_file_id: id, expected_target_version: 3 });
    expect(stale).toMatchObject({ status: 'rejected', failure_reason: 'target_version_mismatch' });
    const saved = await h.call('palimpsest_save', { target_file_id: id, expected_target_version: 10, export_after_save: true });
    expect(saved).toMatchObject({ status: 'saved', version: 10, export: { format: 'original_text', content: 'counter <10>\n' } });
    const target = await h.call('palimpsest_get_target', { target_file_id: id });
    expect(target.active_editing_cycle_id).toBe(saved.new_editing_cycle_id);
    expect(target.current_content).toBe('counter <10>\n');
    const current = await h.call('palimpsest_get_manifest_ledger', { target_file_id: id });
    expect(current.entries).toEqual([]);
    const everything = await h.call('palimpsest_get_manifest_ledger', { target_file_id: id, include_previous_cycles: true, limit: 200 });
    expect(everything.entries).toHaveLength(10);
    expect(await h.count("SELECT count(*) FROM target_snapshots WHERE target_id = $1", [id])).toBe(2);
  });
});
