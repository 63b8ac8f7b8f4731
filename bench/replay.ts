import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatch } from '@palimpsest/application/dispatch/dispatch';
import type { Db } from '@palimpsest/store/db';
import { migrate } from '@palimpsest/store/migrate';
import { openPgliteDb } from '@palimpsest/store/pglite/pglite-db';
import { openPostgresDb } from '@palimpsest/store/postgres/pg-db';
import { streamPages } from '@palimpsest/store/read-stream';
import { cpus, loadavg } from 'node:os';
import { replayTarget, type ReplayReport, type Reconstruction } from '@palimpsest/projections/replay/replay-target';
import { reconstructTarget } from '@palimpsest/projections/replay/replay-target';
import type { Sql } from '@palimpsest/store/db';
import { sha256Hex } from '@palimpsest/core/text/sha256';
import { createBenchDatabase } from './bench-database';
import { appendLongHistory, foldMemory } from './replay-memory';
import { generateHistory, linesDocument } from './replay-histories';
import { baselineModule, best, envNumber, nowMs, table } from './stats';
import { benchGuard } from './deployed-env';

/**
 * palimpsest_replay of generated histories (tx/2 span transactions of a few lines each, submitted through
 * the application) on a 1 KB, a 100 KB and a 1 MB document, beside the raw rate of reading the same
 * events in stream order (the same pages of rows, no fold). PGlite always; PostgreSQL too when
 * DATABASE_URL names a server (a fresh database is created there and dropped after).
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node dist/bench/replay.js
 *
 * Env: BENCH_REPLAY_EVENTS (transactions per history, default 1000), BENCH_REPLAY_RUNS (timed runs, best
 * taken, default 3), BENCH_REPLAY_LONG (events of the long streams whose fold memory is measured, default
 * 100000; 0 skips; run node with --expose-gc for a settled starting heap), BENCH_REPLAY_BASELINE (the dist/
 * directory of a build of the code before, e.g. a worktree of the previous commit: its replayTarget and
 * reconstructTarget run in the same run on the same databases, for the before/after columns).
 */

interface ReplayCode {
  replayTarget: (sql: Sql, targetId: string) => Promise<ReplayReport | null>;
  reconstructTarget: (sql: Sql, targetId: string) => Promise<Reconstruction>;
}

/** What the palimpsest_replay handler does, with the given code: one REPEATABLE READ snapshot. */
function replayWith(db: Db, code: ReplayCode, targetId: string): Promise<ReplayReport | null> {
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    return code.replayTarget(tx, targetId);
  });
}

function verified(r: Record<string, any> | null, events: number): void {
  if (!r || r.status !== 'success' || !r.materialized_state_matches || r.accepted_transactions_replayed !== events) {
    throw new Error(`replay did not verify: ${JSON.stringify(r).slice(0, 600)}`);
  }
}

const KB = 1024;
const SIZES = [
  { label: '1 KB', bytes: KB },
  { label: '100 KB', bytes: 100 * KB },
  { label: '1 MB', bytes: KB * KB },
];

type Row = (string | number)[];

/** Every event of the stream, in order, in the pages replay reads, inside one snapshot: replay without the fold. */
async function rawRead(db: Db, streamId: string): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    let n = 0;
    for await (const page of streamPages(tx, streamId)) n += page.length;
    return n;
  });
}

async function benchBackend(label: string, db: Db, events: number, runs: number, baseline: ReplayCode | null): Promise<Row[]> {
  await migrate(db);
  const ctx = appContext(db);
  const rows: Row[] = [];
  const perEvent: number[] = [];
  const basePerEvent: number[] = [];
  for (const size of SIZES) {
    const t0 = nowMs();
    const id = await generateHistory(ctx, linesDocument(size.bytes), events, 18);
    const generatedS = (nowMs() - t0) / 1000;
    const streamLength = await rawRead(db, `target-${id}`);
    const rawMs = await best(runs, () => rawRead(db, `target-${id}`));
    // Alternated, so that both see the same load on a shared machine.
    let replayMs = Infinity;
    let beforeMs = baseline ? Infinity : NaN;
    for (let i = 0; i < runs; i++) {
      replayMs = Math.min(replayMs, await best(1, async () => verified((await dispatch(ctx, 'palimpsest_replay', { target_file_id: id })) as Record<string, any>, events)));
      if (baseline) beforeMs = Math.min(beforeMs, await best(1, async () => verified(await replayWith(db, baseline, id), events)));
    }
    const rate = (ms: number) => (streamLength / ms) * 1000;
    perEvent.push(replayMs / streamLength);
    basePerEvent.push(beforeMs / streamLength);
    rows.push([
      label,
      size.label,
      streamLength,
      generatedS.toFixed(1),
      rate(rawMs).toFixed(0),
      rate(replayMs).toFixed(0),
      `${((rate(replayMs) / rate(rawMs)) * 100).toFixed(1)} %`,
      ((streamLength * size.bytes) / (KB * KB) / (replayMs / 1000)).toFixed(1),
      (replayMs / streamLength).toFixed(3),
      `${(replayMs / streamLength / perEvent[0]!).toFixed(2)}×`,
      baseline ? rate(beforeMs).toFixed(0) : '–',
      baseline ? `${(beforeMs / streamLength / basePerEvent[0]!).toFixed(2)}×` : '–',
      baseline ? `${(beforeMs / replayMs).toFixed(1)}×` : '–',
    ]);
  }
  return rows;
}

/** Fold memory of a stream a tenth as long and of the long one: bounded means the peak does not grow with it. */
async function memoryBench(label: string, db: Db, long: number, baseline: ReplayCode | null): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [i, n] of [Math.round(long / 10), long].entries()) {
    const t0 = nowMs();
    const id = await appendLongHistory(db, n, i + 1);
    const appendS = (nowMs() - t0) / 1000;
    const codes: [string, ReplayCode['reconstructTarget']][] = [['chunked fold, paged', reconstructTarget]];
    if (baseline) codes.push(['before', baseline.reconstructTarget]);
    for (const [code, reconstruct] of codes) {
      try {
        const m = await foldMemory(db, id, reconstruct);
        if (m.accepted !== n) throw new Error(`${code}: folded ${m.accepted} of ${n}`);
        rows.push([label, code, n + 1, appendS.toFixed(1), ((n / m.ms) * 1000).toFixed(0), m.peakHeapMb.toFixed(1), m.peakLiveMb.toFixed(1)]);
      } catch (error) {
        // The code before reads a stream in one statement: on a long one it can meet the statement timeout.
        if (code === 'chunked fold, paged') throw error;
        rows.push([label, code, n + 1, appendS.toFixed(1), `failed: ${(error as Error).message}`, '–', '–']);
      }
    }
  }
  return rows;
}

/** Rows as they are measured, so a run cut short still shows them. */
function shown(rows: Row[]): Row[] {
  for (const r of rows) console.log(`  ${r.join(' | ')}`);
  return rows;
}

async function main(): Promise<void> {
  const events = Math.round(envNumber('BENCH_REPLAY_EVENTS', 1000));
  const runs = Math.round(envNumber('BENCH_REPLAY_RUNS', 3));
  console.log(
    `palimpsest replay bench: ${events} tx/2 transactions per history (1–3 line rewrites each), best of ${runs}; ` +
      `Node ${process.version}, ${cpus().length} CPUs (load average ${loadavg().map((x) => x.toFixed(2)).join(' ')})`,
  );
  const long = Math.round(envNumber('BENCH_REPLAY_LONG', 100_000));
  const baseline = baselineModule<ReplayCode>('libs', 'projections', 'src', 'replay', 'replay-target.js');
  const rows: Row[] = [];
  const memory: Row[] = [];
  const pglite = await openPgliteDb({ ...benchGuard('pglite'), memory: true });
  try {
    rows.push(...shown(await benchBackend('PGlite', pglite, events, runs, baseline)));
    if (long) memory.push(...shown(await memoryBench('PGlite', pglite, long, baseline)));
  } finally {
    await pglite.close();
  }
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    const bench = await createBenchDatabase(adminUrl);
    const onSignal = () => void bench.drop().finally(() => process.exit(130));
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const db = await openPostgresDb({ ...benchGuard('postgres'), connectionString: bench.url });
    try {
      rows.push(...shown(await benchBackend('PostgreSQL', db, events, runs, baseline)));
      if (long) memory.push(...shown(await memoryBench('PostgreSQL', db, long, baseline)));
    } finally {
      await db.close();
      await bench.drop();
    }
  } else {
    console.log('(PostgreSQL skipped: set DATABASE_URL to include it)');
  }
  table(
    'palimpsest_replay beside reading the same events (best run)',
      ['backend', 'document', 'events', 'generate s', 'raw read ev/s', 'replay ev/s', 'replay / raw', 'folded MB/s', 'replay ms/event', 'vs 1 KB', 'before ev/s', 'before vs 1 KB', 'speed-up'],
      rows,
  );
  const mb = linesDocument(KB * KB);
  const hashMs = await best(20, async () => sha256Hex(mb));
  console.log(
    `\nSHA-256 of the 1 MB document (node:crypto, best of 20, this run): ${hashMs.toFixed(3)} ms. Every acceptance records the ` +
      `whole text's after_hash and replay verifies each one: the fold hashes from the first changed chunk to the end, ` +
      `on average more than half the text when edits fall anywhere, so that is the floor of a 1 MB replay per event.`,
  );
  if (long) table('fold memory of long streams (1 KB document, one-line tx/2 edits)', ['backend', 'code', 'events', 'append s', 'fold ev/s (GC sampled)', 'peak heap MB', 'peak live heap MB'], memory);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
