import { appContext } from '@palimpsest/composition/app-context.builder';
import { migrate } from '@palimpsest/store/migrate';
import { openPostgresDb } from '@palimpsest/store/postgres/pg-db';
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { createBenchDatabase, serverFacts } from './bench-database';
import { ProfilingDb } from './profiling-db';
import { LockedOnlyCache } from './locked-only-cache';
import {
  appLatency,
  appThroughput,
  createTargets,
  documentOf,
  profileSubmits,
  rawEdit,
  rawLatency,
  rawSetup,
  rawThroughput,
  type ThroughputResult,
  type Timing,
} from './scenarios';
import { asDeployed, benchGuard } from './deployed-env';
import { createEmmettStreams, emmettLatency, emmettThroughput, openEmmett, type EmmettBench } from './emmett';
import { IN_FLIGHT, MAX_BATCH, rawBatchedLatency, rawBatchedThroughput } from './raw-batched';
import { envNumber, f2, table } from './stats';

/**
 * Guarded 1-edit tx/1 submissions through dispatch() (in process, no HTTP) against a raw-SQL baseline
 * doing the same shape of work with `pg` alone (per transaction, and batched like our group commit), and
 * against Emmett's PostgreSQL event store, on fresh PostgreSQL databases created and dropped here.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench
 *
 * Env: BENCH_SECONDS (measured seconds per scenario, default 10), BENCH_WARMUP_SECONDS (default 1),
 * BENCH_CLIENTS (default 16), BENCH_TARGETS (default 64), BENCH_PROFILE_ITERATIONS (default 200).
 */

const KB = 1024;
const MB = 1024 * 1024;
const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
const f1 = (x: number) => x.toFixed(1);
const times = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : '–');
async function main(): Promise<void> {
  const deployed = asDeployed();
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    console.error('bench: set DATABASE_URL to a PostgreSQL server (a fresh database is created there and dropped after).');
    process.exit(2);
  }
  const timing: Timing = { warmupMs: envNumber('BENCH_WARMUP_SECONDS', 1) * 1000, durationMs: envNumber('BENCH_SECONDS', 10) * 1000 };
  const clients = Math.round(envNumber('BENCH_CLIENTS', 16));
  const targets = Math.round(envNumber('BENCH_TARGETS', 64));
  const profileIterations = Math.round(envNumber('BENCH_PROFILE_ITERATIONS', 200));

  const facts = await serverFacts(adminUrl);
  console.log(
    `palimpsest bench: PostgreSQL ${facts.server_version} (synchronous_commit=${facts.synchronous_commit}, fsync=${facts.fsync}, ` +
      `shared_buffers=${facts.shared_buffers}), Node ${process.version}, ${cpus().length} CPUs ` +
      `(load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}); ` +
      `${timing.durationMs / 1000} s per scenario after ${timing.warmupMs / 1000} s warm-up; pool = ${clients} connections; ${deployed}`,
  );

  const bench = await createBenchDatabase(adminUrl);
  const emmettDb = await createBenchDatabase(adminUrl).catch(async (error: unknown) => {
    await bench.drop();
    throw error;
  });
  const onSignal = () => {
    void Promise.allSettled([bench.drop(), emmettDb.drop()]).finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.stdout.on('error', () => undefined); // a closed pipe (| head) must not skip the DROP DATABASE below
  let closing = false;
  const db = await openPostgresDb({
    ...benchGuard('postgres'),
    connectionString: bench.url,
    poolMax: clients,
    // pool.end() does not wait for the server to see each Terminate, so DROP … WITH (FORCE) may still find them.
    onError: (error) => {
      if (!closing) console.error(`bench: store error: ${error.message}`);
    },
  });
  const pool = new pg.Pool({ connectionString: bench.url, max: clients, application_name: 'palimpsest-bench-raw' });
  pool.on('error', (error) => {
    if (!closing) console.error(`bench: raw pool error: ${error.message}`);
  });
  let emmett: EmmettBench | undefined;
  try {
    await migrate(db);
    emmett = await openEmmett(emmettDb.url, clients, (error) => {
      if (!closing) console.error(`bench: Emmett pool error: ${error.message}`);
    });
    const ctx = appContext(db);
    const small = documentOf(KB);
    const large = documentOf(MB);

    // (a) + (b): throughput, application vs raw SQL, same clients, same durations.
    const throughput: (string | number)[][] = [];
    const ratios: string[] = [];
    for (const targetCount of [1, targets]) {
      const scenario = `${targetCount} target${targetCount === 1 ? '' : 's'}, ${clients} clients`;
      const appIds = await createTargets(ctx, targetCount, small);
      const app = await appThroughput(ctx, appIds, clients, timing);
      const lockedCtx = appContext(db, { contents: new LockedOnlyCache() });
      const appLocked = await appThroughput(lockedCtx, await createTargets(ctx, targetCount, small), clients, timing);
      const rawIds = await rawSetup(pool, targetCount, small);
      const raw = await rawThroughput(pool, rawIds, clients, timing);
      await rawSetup(pool, targetCount, small);
      const rawNotify = await rawThroughput(pool, rawIds, clients, timing, true);
      await rawSetup(pool, targetCount, small);
      const rawBatched = await rawBatchedThroughput(pool, rawIds, small, clients, timing);
      const streams = await createEmmettStreams(emmett, `t${targetCount}`, targetCount, small);
      const em = await emmettThroughput(emmett, streams, clients, timing);
      const row = (path: string, r: ThroughputResult, accepted: string) => [
        scenario,
        path,
        f1(r.perSecond),
        accepted,
        pct(r.perSecond / raw.perSecond),
        f2(r.clientCpuMsPerOp),
        pct(r.machineBusy),
      ];
      throughput.push(
        row('dispatch()', app, `${f1(app.acceptedPerSecond)} (${pct(app.acceptedShare)})`),
        row('dispatch(), locked path only *', appLocked, `${f1(appLocked.acceptedPerSecond)} (${pct(appLocked.acceptedShare)})`),
        row('raw SQL', raw, ''),
        row('raw SQL + pg_notify', rawNotify, ''),
        row(
          `raw SQL batched (≤ ${MAX_BATCH} per statement, ≤ ${IN_FLIGHT} in flight) †`,
          rawBatched,
          `${pct(rawBatched.batchedShare)} batched, ${f1(rawBatched.meanBatch)} per statement`,
        ),
        row('Emmett (emmett-postgresql, inline Pongo projection) ‡', em, `${f1(em.acceptedPerSecond)} (${pct(em.acceptedShare)} of ${f1(em.attemptsPerSecond)} tries/s)`),
      );
      const accepted = targetCount === 1 ? `; accepted/s: ours / Emmett ${times(app.acceptedPerSecond / em.acceptedPerSecond)}` : '';
      ratios.push(
        `${scenario}: dispatch() / raw SQL = ${times(app.perSecond / raw.perSecond)}, ` +
          `dispatch() / raw SQL batched = ${times(app.perSecond / rawBatched.perSecond)}, ` +
          `dispatch() / Emmett = ${times(app.perSecond / em.perSecond)} (tx/s)${accepted}; ` +
          `Emmett / raw SQL = ${times(em.perSecond / raw.perSecond)}`,
      );
    }
    table(
      'Throughput: guarded 1-edit tx/1 submits on 1 KB targets (aim: dispatch() ≥ 70 % of raw SQL)',
      ['scenario', 'path', 'tx/s', 'accepted/s', 'vs raw SQL', 'Node CPU ms/tx', 'machine CPU busy'],
      throughput,
    );
    console.log(
      '* diagnostic: dispatch() with the one-statement optimistic commit turned off (every submit BEGIN, lock, write, COMMIT); ' +
        'raw SQL + pg_notify shows what a NOTIFY inside every commit would cost the baseline.',
    );
    console.log(
      'tx/s counts committed transactions; a dispatch() submit that loses the race is rejected ' +
        '(target_version_mismatch), recorded like any other attempt, and retried at the version its answer names.',
    );
    console.log(
      `† the raw SQL baseline batched like our group commit: an edit decided on the text this process last committed goes out in ONE ` +
        `statement (lock the rows at their versions, insert the events, update the rows) with up to ${MAX_BATCH - 1} other targets' edits, ` +
        `up to ${IN_FLIGHT} statements at once, never waiting to fill; an edit whose target has another in flight takes the per-transaction path. ` +
        `accepted/s column: share of edits that committed batched, mean edits per statement.`,
    );
    console.log(
      '‡ Emmett: read the inline projection\'s document, decide, appendToStream with expectedStreamVersion; the projection applies the ' +
        'edit in the append\'s transaction. tx/s counts committed appends (a version conflict rolls back, writes nothing, and is retried).',
    );
    for (const line of ratios) console.log(line);

    // (c): single-client latency on a 1 KB and a 1 MB target.
    const [id1k] = await createTargets(ctx, 1, small);
    const [id1m] = await createTargets(ctx, 1, large);
    const app1k = await appLatency(ctx, id1k!, timing);
    const app1m = await appLatency(ctx, id1m!, timing);
    await rawSetup(pool, 2, small);
    await pool.query('UPDATE bench_raw_targets SET content = $1 WHERE target_id = 2', [large]);
    const raw1k = await rawLatency(pool, 1, timing);
    const raw1m = await rawLatency(pool, 2, timing);
    await rawSetup(pool, 2, small);
    await pool.query('UPDATE bench_raw_targets SET content = $1 WHERE target_id = 2', [large]);
    const batched1k = await rawBatchedLatency(pool, 1, small, timing);
    const batched1m = await rawBatchedLatency(pool, 2, large, timing);
    const [stream1k] = await createEmmettStreams(emmett, 'latency-1k', 1, small);
    const [stream1m] = await createEmmettStreams(emmett, 'latency-1m', 1, large);
    const em1k = await emmettLatency(emmett, stream1k!, timing);
    const em1m = await emmettLatency(emmett, stream1m!, timing);
    const latencyRow = (path: string, target: string, l: typeof app1k) => [path, target, l.samples, f2(l.p50), f2(l.p99), f2(l.mean), f2(l.max)];
    table(
      'Latency: one client, sequential 1-edit submits (ms) (aim: 1 MB p50 / 1 KB p50 ≤ 3×)',
      ['path', 'target', 'samples', 'p50', 'p99', 'mean', 'max'],
      [
        latencyRow('dispatch', '1 KB', app1k),
        latencyRow('dispatch', '1 MB', app1m),
        latencyRow('raw SQL', '1 KB', raw1k),
        latencyRow('raw SQL', '1 MB', raw1m),
        latencyRow('raw SQL batched (one edit per statement)', '1 KB', batched1k),
        latencyRow('raw SQL batched (one edit per statement)', '1 MB', batched1m),
        latencyRow('Emmett', '1 KB', em1k),
        latencyRow('Emmett', '1 MB', em1m),
      ],
    );
    console.log(
      `dispatch 1 MB p50 / 1 KB p50 = ${f1(app1m.p50 / app1k.p50)}×   (raw SQL: ${f1(raw1m.p50 / raw1k.p50)}×, ` +
        `raw SQL batched: ${f1(batched1m.p50 / batched1k.p50)}×, Emmett: ${f1(em1m.p50 / em1k.p50)}×)`,
    );
    console.log(
      `p50 latency: dispatch / raw SQL batched = ${times(app1k.p50 / batched1k.p50)} (1 KB), ${times(app1m.p50 / batched1m.p50)} (1 MB); ` +
        `dispatch / Emmett = ${times(app1k.p50 / em1k.p50)} (1 KB), ${times(app1m.p50 / em1m.p50)} (1 MB)`,
    );

    // Where a submit's time goes: one client, every round trip timed; WAL written per transaction beside raw SQL's.
    const profiled = new ProfilingDb(db);
    const walSince = async (lsn: string) =>
      Number((await pool.query('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn) AS d', [lsn])).rows[0].d);
    const walNow = async () => String((await pool.query('SELECT pg_current_wal_lsn()::text AS l')).rows[0].l);
    for (const [label, content] of [['1 KB', small], ['1 MB', large]] as const) {
      const [id] = await createTargets(ctx, 1, content);
      let lsn = await walNow();
      const { totalMs, rows } = await profileSubmits(profiled, id!, profileIterations);
      const appWal = (await walSince(lsn)) / (profileIterations + 20);
      await rawSetup(pool, 1, content);
      lsn = await walNow();
      for (let i = 0; i < profileIterations; i++) await rawEdit(pool, 1);
      const rawWal = (await walSince(lsn)) / profileIterations;
      table(
        `Profile: one client, ${profileIterations} submits on a ${label} target; ${f2(totalMs)} ms per submit`,
        ['phase', 'round trips', 'ms / submit', 'KB sent', 'KB received'],
        rows.map((r) => [
          r.phase,
          r.perSubmit ? f1(r.perSubmit) : '',
          f2(r.msPerSubmit),
          r.kbSentPerSubmit ? f1(r.kbSentPerSubmit) : '',
          r.kbReceivedPerSubmit ? f1(r.kbReceivedPerSubmit) : '',
        ]),
      );
      console.log(`WAL per transaction: dispatch() ${(appWal / 1024).toFixed(1)} KB, raw SQL ${(rawWal / 1024).toFixed(1)} KB (server-wide counter)`);
    }
  } finally {
    closing = true;
    await emmett?.close();
    await pool.end();
    await db.close();
    await Promise.all([bench.drop(), emmettDb.drop()]);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
