import { createAppHarness, type AppHarness } from '@palimpsest/application/test-support/app-harness';
import type { Db, Sql } from '@palimpsest/store/db';
import type { StoredEvent } from '@palimpsest/store/stored-event';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import type { AsyncProjection } from '../../async/async-projection.port';
import { catchUp } from '../../async/catch-up';
import { catchUpFully } from '../../async/test-support/catch-up-fully';
import { readModelDigests } from '../read-model-digest';
import { rebuildProjections } from '../rebuild-projections';
import { rebuildOnline, UnknownProjectionError } from './online-rebuild';

/** A small asynchronous model: events per stream kind, so a lost or doubled event shows in a count. */
const counts: AsyncProjection = {
  name: 'test_counts',
  version: 1,
  tables: ['test_event_counts'],
  async apply(tx: Sql, events: readonly StoredEvent[]) {
    for (const e of events) {
      await tx.query(
        `INSERT INTO test_event_counts (kind, events) VALUES ($1, 1) ON CONFLICT (kind) DO UPDATE SET events = test_event_counts.events + 1`,
        [e.streamId.split('-')[0]],
      );
    }
  },
};

/** The projector's loop; a check after the writers stopped waits out another database's open transaction (catchUpFully). */
function project(db: Db, projection: AsyncProjection, batchSize = 500, fully = false): Promise<{ owned: boolean }> {
  return fully ? catchUpFully(db, projection, { batchSize }) : catchUp(db, projection, { batchSize });
}

describe(`online rebuild on ${describeBackend}`, () => {
  let h: AppHarness;
  const call = (name: string, args: unknown) => h.call(name, args);
  const expectedCounts = async () =>
    (await h.testDb.db.query(`SELECT split_part(stream_id, '-', 1) AS kind, count(*)::bigint AS events FROM events GROUP BY 1 ORDER BY 1`)).rows;
  const liveCounts = async () => (await h.testDb.db.query(`SELECT kind, events FROM test_event_counts ORDER BY 1`)).rows;

  beforeAll(async () => {
    h = await createAppHarness();
    await h.testDb.db.query(`CREATE TABLE test_event_counts (kind text PRIMARY KEY, events bigint NOT NULL CHECK (events > 0))`);
    await h.testDb.db.query(`CREATE INDEX test_event_counts_by_events ON test_event_counts (events DESC)`);
    for (let t = 0; t < 6; t++) {
      const id = await h.target(`title ${t}\nbody alpha\n`);
      await call('palimpsest_submit_edits', { target_file_id: id, intent: 'a', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'beta' }] });
      await call('palimpsest_submit_edits', { target_file_id: id, intent: 'stale', expected_target_version: 0, edits: [{ match: 'x', replace: 'y' }] });
      await call('palimpsest_save', { target_file_id: id, expected_target_version: 1 });
    }
  });
  afterAll(() => h.dispose());

  it('rebuilds while 16 clients write and read: no failed request, and the result equals a stop-the-world rebuild', async () => {
    let stop = false;
    const failures: unknown[] = [];
    let requests = 0;
    const guarded = async (name: string, args: unknown, ok: (r: Record<string, any>) => boolean) => {
      requests++;
      try {
        const r = await call(name, args);
        if (!ok(r)) failures.push({ name, r });
        return r;
      } catch (error) {
        failures.push({ name, error: String(error) });
        return null;
      }
    };
    const client = async (i: number) => {
      const id = await h.target(`client ${i}\ncounter 0\n`, `client-${i}.md`);
      for (let n = 0; (!stop || n < 4) && failures.length === 0; n++) {
        await guarded('palimpsest_submit_edits', {
          target_file_id: id, intent: `step ${n}`, expected_target_version: n, edits: [{ match: `counter ${n}`, replace: `counter ${n + 1}` }],
        }, (r) => r.status === 'accepted' && r.current_version === n + 1);
        await guarded('palimpsest_get_target', { target_file_id: id }, (r) => r.status === 'ok' && String(r.current_content).includes(`counter ${n + 1}`));
        if (n % 5 === 0) await guarded('palimpsest_get_attempt_log', { target_file_id: id }, (r) => r.status === 'ok');
        await new Promise((resolve) => setTimeout(resolve, 40)); // a client thinks between requests (and in process PGlite would never yield)
      }
    };
    let projectorRounds = 0;
    const projector = async () => {
      while (!stop) {
        await project(h.testDb.db, counts, 50); // a round that loses its compare-and-set to the switch applies nothing
        projectorRounds++;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const clients = [...Array.from({ length: 16 }, (_, i) => client(i)), projector()];
    await new Promise((resolve) => setTimeout(resolve, 500));
    const [logBefore, requestsBefore] = [await h.count('SELECT count(*) FROM events'), requests];
    const report = await rebuildOnline(h.testDb.db, { projections: [counts], batchSize: 20 });
    const requestsDuring = requests - requestsBefore;
    stop = true;
    await Promise.all(clients);

    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(16 * 8);
    expect(projectorRounds).toBeGreaterThan(0);
    await project(h.testDb.db, counts, 500, true);
    expect(await liveCounts()).toEqual(await expectedCounts());
    expect(report.rebuilt.map((r) => r.name)).toEqual(['inline', 'test_counts']);
    expect(report).toMatchObject({ equal: true });
    expect(report.rebuilt[0]!.events).toBeGreaterThan(logBefore); // it took in what was written while it ran
    expect(requestsDuring).toBeGreaterThan(16); // and the clients were served meanwhile

    // The async model, after the switch: every event counted exactly once.
    await project(h.testDb.db, counts, 500, true);
    expect(await liveCounts()).toEqual(await expectedCounts());
    // The inline models, rebuilt online and written since, are what a stop-the-world rebuild makes of the log.
    const online = await readModelDigests(h.testDb.db);
    const stopTheWorld = await rebuildProjections(h.testDb.db);
    expect(stopTheWorld).toMatchObject({ equal: true, differing: [], missing: [], extra: [] });
    expect(await readModelDigests(h.testDb.db)).toEqual(online);
    const shadows = await h.testDb.db.query(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'palimpsest_rebuild%'`);
    expect(shadows.rows).toEqual([]);
  });

  it('rebuilds one name, leaving public exactly as the migrations made it, and refuses an unknown one', async () => {
    const shape = async () => (await h.testDb.db.query(`
      SELECT 'index' AS kind, indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = 'public'
      UNION ALL SELECT 'constraint', c.conrelid::regclass::text || '.' || conname, pg_get_constraintdef(c.oid)
        FROM pg_constraint c WHERE c.connamespace = 'public'::regnamespace
      UNION ALL SELECT 'column', table_name || '.' || column_name, concat_ws(' ', data_type, is_nullable, column_default, a.attstorage)
        FROM information_schema.columns i JOIN pg_attribute a ON a.attrelid = ('public.' || i.table_name)::regclass AND a.attname = i.column_name
       WHERE i.table_schema = 'public'
      ORDER BY 1, 2`)).rows;
    const before = await shape();
    const inline = await rebuildOnline(h.testDb.db, { name: 'inline', projections: [counts] });
    expect(inline.rebuilt.map((r) => r.name)).toEqual(['inline']);
    expect(inline.rebuilt[0]).toMatchObject({ equal: true, differing: [] });
    const report = await rebuildOnline(h.testDb.db, { name: 'test_counts', projections: [counts] });
    expect(report.rebuilt.map((r) => r.name)).toEqual(['test_counts']);
    expect(report.rebuilt[0]).toMatchObject({ equal: true, compared: 1 });
    expect(await shape()).toEqual(before);
    await expect(rebuildOnline(h.testDb.db, { name: 'nope', projections: [counts] })).rejects.toThrow(UnknownProjectionError);
  });

  it('repairs a tampered live model and reports the mismatch', async () => {
    const victim = (await h.testDb.db.query(`SELECT target_id::text AS id FROM attempts ORDER BY log_sequence LIMIT 1`)).rows[0].id;
    await h.testDb.db.query(`UPDATE attempts SET intent = 'tampered' WHERE target_id = $1`, [victim]);
    await h.testDb.db.query(`UPDATE test_event_counts SET events = events + 7 WHERE kind = 'target'`);
    const report = await rebuildOnline(h.testDb.db, { projections: [counts] });
    expect(report.equal).toBe(false);
    expect(report.rebuilt[0]).toMatchObject({ name: 'inline', equal: false, differing: [victim], missing: [], extra: [] });
    expect(report.rebuilt[1]).toMatchObject({ name: 'test_counts', equal: false, differing: ['test_counts:test_event_counts'] });
    expect(await h.count(`SELECT count(*) FROM attempts WHERE intent = 'tampered'`)).toBe(0);
    expect(await liveCounts()).toEqual(await expectedCounts());
    expect(await rebuildProjections(h.testDb.db)).toMatchObject({ equal: true });
  });
});
