import { createAppHarness, type AppHarness } from '@palimpsest/application/test-support/app-harness';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { catchUp } from '../catch-up';
import { catchUpFully } from '../test-support/catch-up-fully';
import { activityProjection } from './activity.projection';
import { activityGroups, activitySeries, activityTotals } from './activity.queries';

const ALL_TIME = { since: '2000-01-01T00:00:00.000Z', until: '2100-01-01T00:00:00.000Z' };

describe(`the activity projection (${describeBackend})`, () => {
  let h: AppHarness;
  let a: string;
  let b: string;

  const submit = (target: string, match: string, extra: Record<string, unknown> = {}) =>
    h.call('palimpsest_submit_edits', { target_file_id: target, intent: 'edit', expected_current_hash: null, edits: [{ match, replace: 'x' }], ...extra });

  beforeAll(async () => {
    h = await createAppHarness();
    a = await h.target('one two three four\n');
    b = await h.target('alpha beta\n');
    const missed = await submit(a, 'absent', { expected_target_version: 0 });
    expect(missed.status).toBe('rejected');
    await submit(a, 'one', { expected_target_version: 0, parent_attempt_id: missed.attempt_id, attempt: 2, source: 'retry_tool' });
    await submit(a, 'two', { expected_target_version: 0 });
    await submit(a, 'three', { expected_target_version: 1 });
    await submit(b, 'alpha', { expected_target_version: 0 });
  });
  afterAll(() => h.dispose());

  it('counts what the attempt log records, per target and overall, and a second catchUp applies nothing', async () => {
    const first = await catchUpFully(h.testDb.db, activityProjection, { batchSize: 3 });
    expect(first.applied).toBe(await h.count('SELECT count(*) FROM events'));
    expect(await catchUp(h.testDb.db, activityProjection)).toEqual({ applied: 0, batches: 0, owned: true });
    const { rows: log } = await h.testDb.db.query(
      `SELECT status, source, COALESCE(failure_reason, '') AS failure_reason, count(*)::int AS attempts,
              count(parent_attempt_id)::int AS retries
         FROM attempts GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`);
    expect(await activityGroups(h.testDb.db, { targetId: null, ...ALL_TIME })).toEqual(log);
    expect(await activityTotals(h.testDb.db)).toEqual(log);
    const forB = await activityGroups(h.testDb.db, { targetId: b, ...ALL_TIME });
    expect(forB).toEqual([{ status: 'accepted', source: 'model_response', failure_reason: '', attempts: 1, retries: 0 }]);
    const forA = await activityGroups(h.testDb.db, { targetId: a, ...ALL_TIME });
    expect(forA.reduce((n, r) => n + r.attempts, 0)).toBe(4);
    expect(forA.find((r) => r.source === 'retry_tool')).toMatchObject({ status: 'accepted', retries: 1 });
    expect(forA.filter((r) => r.status === 'rejected').map((r) => r.failure_reason).sort())
      .toEqual(log.filter((r: { status: string }) => r.status === 'rejected').map((r: { failure_reason: string }) => r.failure_reason).sort());
  });

  it('buckets by minute of recorded_at, and a window outside them counts nothing', async () => {
    const { rows } = await h.testDb.db.query(`SELECT min(created_at) AS first FROM attempts`);
    const minute = new Date(rows[0].first);
    minute.setUTCSeconds(0, 0);
    const series = await activitySeries(h.testDb.db, { targetId: null, ...ALL_TIME }, 'hour');
    expect(series.reduce((n, r) => n + r.attempts, 0)).toBe(5);
    for (const r of series) expect(r.bucket.getUTCMinutes()).toBe(0);
    const before = { targetId: null, since: '2000-01-01T00:00:00.000Z', until: minute.toISOString() };
    expect(await activityGroups(h.testDb.db, before)).toEqual([]);
  });
});
