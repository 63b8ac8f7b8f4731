import { createAppHarness, type AppHarness } from '@palimpsest/application/test-support/app-harness';
import type { AsyncProjection } from '@palimpsest/projections/async/async-projection.port';
import { activityProjection } from '@palimpsest/projections/async/activity/activity.projection';
import { hasReached, loadCheckpoint, resetCheckpoint } from '@palimpsest/projections/async/projection-checkpoints';
import { searchProjection } from '@palimpsest/projections/async/search/search.projection';
import { catchUpFully } from '@palimpsest/projections/async/test-support/catch-up-fully';
import type { Sql } from '@palimpsest/store/db';
import { deferred, eventually } from '@palimpsest/store/test-support/eventually';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import type { LogConsumer } from './log-consumer';
import { projectorConsumer } from './projector-consumer';

const PROJECTIONS = [searchProjection, activityProjection];
const BATCH = 4;
const CATCH_UP_BATCH = 64;

/** Every row of the two read models, the tsvector as text, in a fixed order. */
async function readModels(sql: Sql): Promise<unknown[]> {
  const { rows: search } = await sql.query(`SELECT d.*, d.document::text AS document FROM search_documents d ORDER BY target_id`);
  const { rows: minutes } = await sql.query(`SELECT * FROM activity_minutes ORDER BY target_id, bucket, status, source, failure_reason`);
  const { rows: totals } = await sql.query(`SELECT * FROM activity_totals ORDER BY status, source, failure_reason`);
  return [search, minutes, totals];
}

/** The projection, its batch sizes recorded (the same name, tables and rows). */
function sized(projection: AsyncProjection, sizes: number[]): AsyncProjection {
  return { ...projection, apply: (tx, events) => (sizes.push(events.length), projection.apply(tx, events)) };
}

describe(`the projector's catch-up in widening pages (${describeBackend})`, () => {
  let h: AppHarness;
  let consumer: LogConsumer | undefined;

  beforeAll(async () => {
    h = await createAppHarness();
    for (let t = 0; t < 5; t++) {
      const id = await h.target(`alpha ${t} v0\n`, `notes/t${t}.md`);
      for (let v = 0; v < 12; v++) {
        const r = await h.call('palimpsest_submit_edits', {
          target_file_id: id, intent: `step ${v} of ${t}`, expected_target_version: v, edits: [{ match: ` v${v}\n`, replace: ` v${v + 1}\n` }],
        });
        expect(r.status).toBe('accepted');
      }
      await h.call('palimpsest_submit_edits', { target_file_id: id, intent: 'stale', expected_target_version: 0, edits: [{ match: 'x', replace: 'y' }] });
    }
  });
  afterAll(async () => {
    await consumer?.stop();
    await h.dispose();
  });

  it('makes the same rows as a rebuild one event a batch, its pages widening while behind', async () => {
    const { db } = h.testDb;
    const last = await h.count('SELECT max(global_position) FROM events');
    const sizes: number[] = [];
    consumer = projectorConsumer(db, {
      projections: PROJECTIONS.map((p) => sized(p, p === searchProjection ? sizes : [])),
      runner: { batchSize: BATCH, catchUpBatchSize: CATCH_UP_BATCH, pollMs: 50 },
    });
    await consumer.start();
    await eventually(async () => Promise.all(PROJECTIONS.map((p) => hasReached(db, p.name, last))), (reached) => reached.every(Boolean), { timeoutMs: 15_000 });
    await consumer.stop();
    consumer = undefined;
    expect(Math.max(...sizes)).toBeGreaterThan(BATCH);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(CATCH_UP_BATCH);
    const caughtUp = await readModels(db);
    expect((caughtUp[0] as unknown[]).length).toBe(5);

    for (const p of PROJECTIONS) {
      for (const table of p.tables) await db.query(`TRUNCATE ${table}`);
      await resetCheckpoint(db, p.name);
      await catchUpFully(db, p, { batchSize: 1 });
    }
    expect(await readModels(db)).toEqual(caughtUp);
  });

  // The embedded store has one process and no fencing tokens (leader-lease.ts).
  if (describeBackend === 'postgres') {
    it('refuses the widened batch of a process whose lease was taken over meanwhile', async () => {
      const { db } = h.testDb;
      for (const p of PROJECTIONS) {
        for (const table of p.tables) await db.query(`TRUNCATE ${table}`);
        await resetCheckpoint(db, p.name);
      }
      const inWidePage = deferred<void>();
      const resume = deferred<void>();
      const gated: AsyncProjection = {
        ...searchProjection,
        async apply(tx, events) {
          await searchProjection.apply(tx, events);
          if (events.length <= BATCH) return;
          inWidePage.resolve();
          await resume.promise;
        },
      };
      const errors: unknown[] = [];
      consumer = projectorConsumer(db, {
        projections: [gated],
        runner: { batchSize: BATCH, catchUpBatchSize: CATCH_UP_BATCH, pollMs: 50, retryMs: 60_000, onError: (error) => void errors.push(error) },
      });
      await consumer.start();
      await inWidePage.promise; // its first batch, a wide page, applied and not yet committed
      const before = await loadCheckpoint(db, searchProjection.name);
      const committed = await readModels(db);
      await db.query(`UPDATE projector_shard_leases SET token = token + 1 WHERE shard = $1`, [searchProjection.name]); // a takeover
      resume.resolve();
      await eventually(async () => errors.length, (n) => n > 0);
      expect(String(errors[0])).toContain('fenced');
      expect(await loadCheckpoint(db, searchProjection.name)).toMatchObject({ xid: before.xid, position: before.position, eventsHandled: before.eventsHandled });
      expect(await readModels(db)).toEqual(committed); // the widened batch's writes rolled back
      await consumer.stop();
      consumer = undefined;
    });
  }
});
