import { cpus, loadavg } from 'node:os';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatch } from '@palimpsest/application/dispatch/dispatch';
import { rebuildOnline } from '@palimpsest/projections/rebuild/online/online-rebuild';
import { rebuildProjections } from '@palimpsest/projections/rebuild/rebuild-projections';
import type { Db } from '@palimpsest/store/db';
import { migrate } from '@palimpsest/store/migrate';
import { openPgliteDb } from '@palimpsest/store/pglite/pglite-db';
import { openPostgresDb } from '@palimpsest/store/postgres/pg-db';
import { createBenchDatabase } from './bench-database';
import { generateHistory, linesDocument } from './replay-histories';
import { baselineModule, best, envNumber, table } from './stats';
import { benchGuard } from './deployed-env';

/**
 * Issue 18, item 2: one fold for replay, the stop-the-world rebuild and the online rebuild. One generated
 * history (tx/2 rewrites of a few lines) on a 1 KB and on a 1 MB document, each alone in a fresh database,
 * folded by each of the three; ms per event side by side. With BENCH_REPLAY_BASELINE (the dist/ of a build
 * of the code before) its online rebuild runs on the same database, alternated with ours.
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node dist/bench/rebuild-fold.js
 *
 * Env: BENCH_REBUILD_FOLD_EVENTS (1000), BENCH_REPLAY_RUNS (best of, 3).
 */

type OnlineRebuild = typeof rebuildOnline;

function mustEqual(r: { equal: boolean }, what: string): void {
  if (!r.equal) throw new Error(`${what} did not rebuild what the live models hold`);
}

async function measure(label: string, size: string, db: Db, bytes: number, events: number, runs: number, before: OnlineRebuild | null) {
  await migrate(db);
  const ctx = appContext(db);
  const id = await generateHistory(ctx, linesDocument(bytes), events, 18);
  const log = Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);
  const replay = await best(runs, () => dispatch(ctx, 'palimpsest_replay', { target_file_id: id }));
  const stopTheWorld = await best(runs, async () => mustEqual(await rebuildProjections(db), 'rebuild'));
  let online = Infinity;
  let old = before ? Infinity : NaN;
  for (let i = 0; i < runs; i++) {
    online = Math.min(online, await best(1, async () => mustEqual(await rebuildOnline(db, { name: 'inline' }), 'online rebuild')));
    if (before) old = Math.min(old, await best(1, async () => mustEqual(await before(db, { name: 'inline' }), 'online rebuild before')));
  }
  const per = (ms: number) => (ms / log).toFixed(3);
  return [label, size, log, per(replay), per(stopTheWorld), per(online), before ? per(old) : '–', before ? `${(old / online).toFixed(1)}×` : '–'];
}

async function main(): Promise<void> {
  const events = Math.round(envNumber('BENCH_REBUILD_FOLD_EVENTS', 1000));
  const runs = Math.round(envNumber('BENCH_REPLAY_RUNS', 3));
  console.log(`rebuild-fold bench: ${events} tx/2 transactions per history, best of ${runs}; Node ${process.version}, ${cpus().length} CPUs (load average ${loadavg().map((x) => x.toFixed(2)).join(' ')})`);
  const before = baselineModule<{ rebuildOnline: OnlineRebuild }>('libs', 'projections', 'src', 'rebuild', 'online', 'online-rebuild.js')?.rebuildOnline ?? null;
  const rows: (string | number)[][] = [];
  for (const [size, bytes] of [['1 KB', 1024], ['1 MB', 1024 * 1024]] as const) {
    const pglite = await openPgliteDb({ ...benchGuard('pglite'), memory: true });
    try {
      rows.push(await measure('PGlite', size, pglite, bytes, events, runs, before));
    } finally {
      await pglite.close();
    }
    console.log(`  ${rows[rows.length - 1]!.join(' | ')}`);
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) continue;
    const bench = await createBenchDatabase(adminUrl);
    const db = await openPostgresDb({ ...benchGuard('postgres'), connectionString: bench.url });
    try {
      rows.push(await measure('PostgreSQL', size, db, bytes, events, runs, before));
    } finally {
      await db.close();
      await bench.drop();
    }
    console.log(`  ${rows[rows.length - 1]!.join(' | ')}`);
  }
  table(
    'ms per event of the log: the three folds of one history',
    ['backend', 'document', 'events', 'replay', 'rebuild (stop the world)', 'rebuild --online inline', 'online before', 'online speed-up'],
    rows,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
