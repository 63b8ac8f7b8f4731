import { createAppHarness, type AppHarness } from '@palimpsest/application/test-support/app-harness';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { rebuildProjections } from '../rebuild/rebuild-projections';
import { readModelDigests } from '../rebuild/read-model-digest';

/**
 * Replay and rebuild of a text of many chunks (the fold's span windows and resumed hashing), and what
 * they report when the events or the materialized text were altered in SQL.
 */
describe(`replay of a long text on ${describeBackend}`, () => {
  let h: AppHarness;
  let id: string;
  const lines = Array.from({ length: 2000 }, (_, i) => `line ${i} 😀 of a text long enough to span many chunks`);
  const text = lines.join('\n') + '\n';
  const attempts: string[] = [];

  /** Code-point offset of line `n`. */
  const offsetOf = (current: string, n: number) => Array.from(current.split('\n').slice(0, n).join('\n')).length + (n > 0 ? 1 : 0);

  beforeAll(async () => {
    h = await createAppHarness();
    id = await h.target(text, 'long.txt');
    let current = text;
    for (let v = 0; v < 6; v++) {
      const n = (v * 337 + 11) % lines.length;
      const line = current.split('\n')[n]!;
      const start = offsetOf(current, n);
      const replace = `${line} (edit ${v})`;
      const r = await h.call('palimpsest_submit_operations', {
        target_file_id: id, intent: `edit ${v}`, expected_target_version: v,
        operations: [{ op: 'span', start, end: start + Array.from(line).length, expected_text: line, replace, ...(v % 2 ? { expected_after: '\n' } : {}) }],
      });
      expect(r).toMatchObject({ status: 'accepted', version: v + 1 });
      attempts.push(r.attempt_id);
      current = current.split('\n').map((l, i) => (i === n ? replace : l)).join('\n');
    }
  });
  afterAll(() => h.dispose());

  it('replays every acceptance and rebuilds the read models equal', async () => {
    expect(await h.call('palimpsest_replay', { target_file_id: id })).toMatchObject({ status: 'success', accepted_transactions_replayed: 6, materialized_state_matches: true });
    const before = await readModelDigests(h.testDb.db);
    expect(await rebuildProjections(h.testDb.db)).toMatchObject({ equal: true, differing: [] });
    expect(await readModelDigests(h.testDb.db)).toEqual(before);
    expect(await h.call('palimpsest_replay', { target_file_id: id })).toMatchObject({ materialized_state_matches: true });
  });

  it('reports a chunk altered in SQL', async () => {
    await h.testDb.db.query(`UPDATE target_chunks SET body = body || 'x' WHERE target_id = $1 AND chunk_index = 2`, [id]);
    expect(await h.call('palimpsest_replay', { target_file_id: id })).toMatchObject({
      status: 'success', materialized_state_matches: false,
      materialized_state_checks: { content_matches: false, stored_hash_matches: true, recomputed_hash_matches: false, version_matches: true },
    });
    await rebuildProjections(h.testDb.db);
  });

  async function tamper(sql: string, params: unknown[]) {
    await h.testDb.db.query('ALTER TABLE events DISABLE TRIGGER events_append_only');
    try {
      await h.testDb.db.query(sql, params);
    } finally {
      await h.testDb.db.query('ALTER TABLE events ENABLE TRIGGER events_append_only');
    }
  }

  it('reports the first acceptance whose recorded operations were altered, as replay_diverged', async () => {
    await tamper(
      `UPDATE events SET data = jsonb_set(data, '{content}', to_jsonb(replace(data->>'content', '(edit 3)', '(edit 3!)')))
        WHERE stream_id = $1 AND data->>'attempt_id' = $2`,
      [`target-${id}`, attempts[3]],
    );
    const r = await h.call('palimpsest_replay', { target_file_id: id });
    expect(r).toMatchObject({
      status: 'failed', failure_reason: 'replay_diverged', diverged_attempt_id: attempts[3],
      failure_detail: `attempt ${attempts[3]} does not replay: reconstructed text does not match the recorded after_hash`,
      accepted_transactions_replayed: 3, materialized_state_matches: false,
    });
  });
});
