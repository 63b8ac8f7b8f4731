import { createAppHarness, type AppHarness } from '@palimpsest/application/test-support/app-harness';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { rebuildOnline } from '../rebuild/online/online-rebuild';
import { readModelDigests } from '../rebuild/read-model-digest';
import { rebuildProjections } from '../rebuild/rebuild-projections';

/**
 * ProposalAccepted records its effects (schema version 2). Replay re-runs each recorded engine and must
 * find the recorded effects: one altered in SQL is a divergence. Version-1 rows (no effects, as released)
 * still fold, replay and rebuild: their effects are derived on read by their recorded runtime.
 */
describe(`effects in the log on ${describeBackend}`, () => {
  let h: AppHarness;
  const attempts: string[] = [];

  const text = 'alpha 😀 beta\ngamma delta\n';

  async function tamper(sql: string, params: unknown[]) {
    await h.testDb.db.query('ALTER TABLE events DISABLE TRIGGER events_append_only');
    try {
      await h.testDb.db.query(sql, params);
    } finally {
      await h.testDb.db.query('ALTER TABLE events ENABLE TRIGGER events_append_only');
    }
  }

  /** A target with three accepted changes (tx/1, tx/2, tx/3); their attempt ids in order. */
  async function edited(): Promise<{ id: string; attempts: string[] }> {
    const id = await h.target(text, 'effects.txt');
    const ids: string[] = [];
    const calls: [string, Record<string, unknown>][] = [
      ['palimpsest_submit_edits', { intent: 'one', edits: [{ match: 'beta', replace: 'BETA 𝄞' }] }],
      ['palimpsest_submit_operations', { intent: 'two', operations: [{ op: 'span', start: 0, end: 5, expected_text: 'alpha', replace: 'ALPHA' }, { op: 'span', start: 5, end: 7, expected_text: ' 😀', replace: '' }] }],
      ['palimpsest_submit_edits', { intent: 'three', edits: [{ match: 'gamma', replace: 'γ' }] }],
    ];
    for (const [v, [op, params]] of calls.entries()) {
      const r = await h.call(op, { target_file_id: id, expected_target_version: v, ...params });
      expect(r).toMatchObject({ status: 'accepted', version: v + 1 });
      ids.push(r.attempt_id);
    }
    return { id, attempts: ids };
  }

  beforeAll(async () => {
    h = await createAppHarness();
  });
  afterAll(() => h.dispose());

  it('writes acceptances as version 2 with their effects in code points of the preimage', async () => {
    const t = await edited();
    attempts.push(...t.attempts);
    const { rows } = await h.testDb.db.query(
      `SELECT schema_version, data->'effects' AS effects FROM events WHERE stream_id = $1 AND event_type = 'ProposalAccepted' ORDER BY stream_version`,
      [`target-${t.id}`],
    );
    expect(rows).toEqual([
      { schema_version: 2, effects: [{ start: 8, end: 12, inserted: 'BETA 𝄞' }] },
      { schema_version: 2, effects: [{ start: 0, end: 7, inserted: 'ALPHA' }] },
      { schema_version: 2, effects: [{ start: 13, end: 18, inserted: 'γ' }] },
    ]);
    expect(await h.call('palimpsest_replay', { target_file_id: t.id })).toMatchObject({ status: 'success', accepted_transactions_replayed: 3, materialized_state_matches: true });
  });

  it('folds, replays and rebuilds version-1 acceptances (no effects), deriving them on read', async () => {
    const t = await edited();
    const before = await readModelDigests(h.testDb.db);
    await tamper(
      `UPDATE events SET schema_version = 1, data = data - 'effects' WHERE stream_id = $1 AND event_type = 'ProposalAccepted'`,
      [`target-${t.id}`],
    );
    expect(await h.count(`SELECT count(*) FROM events WHERE stream_id = $1 AND schema_version = 1 AND NOT data ? 'effects'`, [`target-${t.id}`])).toBe(4);
    expect(await h.call('palimpsest_replay', { target_file_id: t.id })).toMatchObject({ status: 'success', accepted_transactions_replayed: 3, materialized_state_matches: true });
    expect(await rebuildProjections(h.testDb.db)).toMatchObject({ equal: true, differing: [] });
    expect(await rebuildOnline(h.testDb.db, { name: 'inline' })).toMatchObject({ equal: true });
    expect(await readModelDigests(h.testDb.db)).toEqual(before);
    // A later acceptance on top of the version-1 history is written as version 2.
    const r = await h.call('palimpsest_submit_edits', { target_file_id: t.id, intent: 'four', expected_target_version: 3, edits: [{ match: 'delta', replace: 'δ' }] });
    expect(r).toMatchObject({ status: 'accepted', version: 4 });
    expect(await h.call('palimpsest_replay', { target_file_id: t.id })).toMatchObject({ status: 'success', accepted_transactions_replayed: 4, materialized_state_matches: true });
  });

  // The tampered histories below would stop a rebuild: they come last.
  it('reports an acceptance whose recorded effects were altered as replay_diverged', async () => {
    const t = await edited();
    await tamper(
      `UPDATE events SET data = jsonb_set(data, '{effects,0,inserted}', to_jsonb('ALPHA!'::text))
        WHERE stream_id = $1 AND data->>'attempt_id' = $2`,
      [`target-${t.id}`, t.attempts[1]],
    );
    expect(await h.call('palimpsest_replay', { target_file_id: t.id })).toMatchObject({
      status: 'failed', failure_reason: 'replay_diverged', diverged_attempt_id: t.attempts[1],
      failure_detail: `attempt ${t.attempts[1]} does not replay: the recorded effects differ from the effects its runtime produces`,
      accepted_transactions_replayed: 1, materialized_state_matches: false,
    });
  });

  it('a version-1 acceptance whose record no longer applies is still a divergence', async () => {
    const t = await edited();
    await tamper(
      `UPDATE events SET schema_version = 1, data = jsonb_set(data - 'effects', '{content}', to_jsonb(replace(data->>'content', 'γ', 'g')))
        WHERE stream_id = $1 AND data->>'attempt_id' = $2`,
      [`target-${t.id}`, t.attempts[2]],
    );
    expect(await h.call('palimpsest_replay', { target_file_id: t.id })).toMatchObject({
      status: 'failed', failure_reason: 'replay_diverged', diverged_attempt_id: t.attempts[2],
      failure_detail: `attempt ${t.attempts[2]} does not replay: reconstructed text does not match the recorded after_hash`,
      accepted_transactions_replayed: 2,
    });
  });
});
