import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatch } from '@palimpsest/application/dispatch/dispatch';
import { catchUp } from '@palimpsest/projections/async/catch-up';
import { activityProjection } from '@palimpsest/projections/async/activity/activity.projection';
import { searchProjection } from '@palimpsest/projections/async/search/search.projection';
import type { Db } from '@palimpsest/store/db';
import { migrate } from '@palimpsest/store/migrate';
import { openDb } from '@palimpsest/store/open-db';
import { checkpointOf, readAll } from '@palimpsest/store/read-all';
import { createBenchDatabase } from './bench-database';
import { envNumber, f2, nowMs, summarize, table } from './stats';
import { benchStore } from './deployed-env';

/**
 * The two asynchronous read models (issue 17): catch-up rate of `search` and `activity` (catchUp from
 * position 0, batches of 500) beside the raw rate of reading the same events in the same order with
 * readAll, measured in this run on PostgreSQL; then palimpsest_search_targets and
 * palimpsest_get_target_activity latencies (dispatch, in process) once caught up.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run build && node dist/bench/read-models.js
 *
 * Env: READ_MODELS_TARGETS (default 200), READ_MODELS_EDITS (per target, default 20), READ_MODELS_QUERIES (200).
 */

const TARGETS = envNumber('READ_MODELS_TARGETS', 200);
const EDITS = envNumber('READ_MODELS_EDITS', 20);
const QUERIES = envNumber('READ_MODELS_QUERIES', 200);
const WORDS = 'harbour lantern ledger parchment scribe river valley copper engine station letter answer archive garden silver'.split(' ');

const paragraph = (i: number) => Array.from({ length: 300 }, (_, k) => WORDS[(i * 7 + k * 13) % WORDS.length]).join(' ');

async function seed(db: Db): Promise<void> {
  const ctx = appContext(db);
  for (let t = 0; t < TARGETS; t++) {
    const created = await dispatch(ctx, 'palimpsest_initialize_target', { filename: `docs/note-${t}.md`, content: `${paragraph(t)}\nstep-0\n` });
    const id = String(created.target_file_id);
    let step = 0;
    for (let e = 0; e < EDITS; e++) {
      // Every fifth submit misses (a rejected attempt); the others move the step marker on.
      const miss = e % 5 === 4;
      const answer = await dispatch(ctx, 'palimpsest_submit_edits', {
        target_file_id: id, intent: `edit ${e} of note ${t}`, expected_target_version: step,
        edits: [{ match: miss ? 'absent-text' : `step-${step}`, replace: `step-${step + 1}` }],
      });
      if (answer.status === 'accepted') step += 1;
    }
  }
}

async function rawRead(db: Db): Promise<number> {
  let after = null;
  let n = 0;
  for (;;) {
    const batch = await readAll(db, { after, limit: 500 });
    if (batch.length === 0) return n;
    n += batch.length;
    after = checkpointOf(batch[batch.length - 1]!);
  }
}

/** readAll withholds events above the server's xmin: wait until no other transaction on the server hides any. */
async function allVisible(db: Db): Promise<void> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
  while ((await rawRead(db)) < rows[0]!.n) await new Promise((resolve) => setTimeout(resolve, 100));
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = nowMs();
  const value = await fn();
  return { ms: nowMs() - start, value };
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('set DATABASE_URL to a PostgreSQL server (the benchmark creates and drops its own database)');
  const database = await createBenchDatabase(adminUrl);
  const db = await openDb({ databaseUrl: database.url }, benchStore());
  try {
    await migrate(db);
    const seeded = await timed(() => seed(db));
    await allVisible(db);
    const raw = await timed(() => rawRead(db));
    const search = await timed(() => catchUp(db, searchProjection));
    const activity = await timed(() => catchUp(db, activityProjection));
    const rate = (events: number, ms: number) => (events / ms) * 1000;
    const rawRate = rate(raw.value, raw.ms);
    console.log(`seeded ${TARGETS} targets × ${EDITS} submits (${raw.value} events) in ${f2(seeded.ms / 1000)} s`);
    table('catch-up from position 0 (batches of 500)', ['consumer', 'events', 'ms', 'events/s', 'vs raw readAll'], [
      ['raw readAll', raw.value, f2(raw.ms), f2(rawRate), '1.00'],
      ['search', search.value.applied, f2(search.ms), f2(rate(search.value.applied, search.ms)), f2(rate(search.value.applied, search.ms) / rawRate)],
      ['activity', activity.value.applied, f2(activity.ms), f2(rate(activity.value.applied, activity.ms)), f2(rate(activity.value.applied, activity.ms) / rawRate)],
    ]);
    const ctx = appContext(db);
    const latencies = async (call: (i: number) => Promise<unknown>) => {
      const samples: number[] = [];
      for (let i = 0; i < QUERIES; i++) samples.push((await timed(() => call(i))).ms);
      return summarize(samples);
    };
    const rows: (string | number)[][] = [];
    for (const [name, call] of [
      ['search_targets "harbour lantern" (every target)', () => dispatch(ctx, 'palimpsest_search_targets', { query: 'harbour lantern', limit: 10 })],
      ['search_targets "edit 7" (intents)', () => dispatch(ctx, 'palimpsest_search_targets', { query: '"edit 7"', limit: 10 })],
      ['get_target_activity, all targets, 60 min', () => dispatch(ctx, 'palimpsest_get_target_activity', { window_minutes: 60 })],
    ] as const) {
      const s = await latencies(call);
      rows.push([name, f2(s.p50), f2(s.p99), f2(s.mean)]);
    }
    table(`reads once caught up (${QUERIES} each, in process)`, ['read', 'p50 ms', 'p99 ms', 'mean ms'], rows);
  } finally {
    await db.close();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
