import { type AppContext } from '@palimpsest/application/app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatch } from '@palimpsest/application/dispatch/dispatch';
import { projectorStatus } from '@palimpsest/application/queries/projector-status.handler';
import type { AsyncProjection } from '@palimpsest/projections/async/async-projection.port';
import { ASYNC_PROJECTIONS } from '@palimpsest/projections/async/registry';
import { startProjector } from '@palimpsest/projector/projector';
import { projectorBatchSize } from '@palimpsest/projector/projector-config';
import type { Db } from '@palimpsest/store/db';
import { migrate } from '@palimpsest/store/migrate';
import { openPostgresDb } from '@palimpsest/store/postgres/pg-db';
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { createBenchDatabase } from './bench-database';
import { appThroughput, createTargets, documentOf, marker } from './scenarios';
import { envNumber, f2, nowMs, summarize, table } from './stats';
import { benchGuard } from './deployed-env';

/**
 * The projector on PostgreSQL, in one run:
 *  1. catch-up: every asynchronous projection (the registry's, plus a probe that stamps each event's
 *     lag) from position 0 over a log written by real submits, beside the raw rate of reading the same
 *     events table in the same (transaction_xid, global_position) order with `pg` alone;
 *  2. lag under a steady 500 submits/s through dispatch() (open loop), the projector (the Nest
 *     microservice) in the same Node process but on its own pool, as `palimpsest projector` runs: the
 *     probe's per-event lag (its batch's apply minus the event's recorded_at, so the submit's own
 *     latency included, printed beside it) and each projection's status lag_seconds every 100 ms.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run build && node dist/bench/projector.js
 *
 * Env: BENCH_SEED_SECONDS (closed-loop submits writing the log, default 20), BENCH_CLIENTS (16),
 * BENCH_TARGETS (256, so that 500/s leaves each target time for its last submit), BENCH_BATCH (events per
 * projector batch; default PALIMPSEST_PROJECTOR_BATCH_SIZE's, 500), BENCH_RATE (submits/s, 500), BENCH_SECONDS (steady phase, 10).
 */

const PROBE_TABLE = 'bench_projector_probe';

/** Records each event's lag (ms from recorded_at to its batch's apply) by global position. */
const probe: AsyncProjection = {
  name: 'bench-probe',
  version: 1,
  tables: [PROBE_TABLE],
  async apply(tx, events) {
    await tx.query(
      `INSERT INTO ${PROBE_TABLE} (global_position, lag_ms)
       SELECT p, EXTRACT(EPOCH FROM clock_timestamp() - r) * 1000 FROM unnest($1::bigint[], $2::timestamptz[]) AS u(p, r)`,
      [events.map((e) => e.globalPosition), events.map((e) => e.recordedAt)],
    );
  },
};

/** Reads the whole events table in commit-safe order, 500 rows a statement, as readAll does: events/s. */
async function rawReadRate(url: string): Promise<{ events: number; perSecond: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    let after = { xid: '0', position: '0' };
    let events = 0;
    const started = nowMs();
    for (;;) {
      const { rows } = await client.query(
        `SELECT global_position, stream_id, stream_version, event_type, schema_version, data, metadata, transaction_xid::text AS transaction_xid, recorded_at
           FROM events
          WHERE transaction_xid < pg_snapshot_xmin(pg_current_snapshot()) AND (transaction_xid, global_position) > ($1::text::xid8, $2::bigint)
          ORDER BY events.transaction_xid, events.global_position LIMIT 500`,
        [after.xid, after.position],
      );
      if (rows.length === 0) break;
      events += rows.length;
      const last = rows[rows.length - 1];
      after = { xid: last.transaction_xid, position: String(last.global_position) };
    }
    return { events, perSecond: events / ((nowMs() - started) / 1000) };
  } finally {
    await client.end();
  }
}

/**
 * Starts the projector and waits until every projection's checkpoint is the log's last event in commit
 * order (polled every 20 ms on the checkpoints alone: a status query counts the lag, which would load
 * the server it measures): events/s for all of them, and the seconds each one took.
 */
async function catchUpRate(db: Db, projections: readonly AsyncProjection[], events: number) {
  const { rows } = await db.query<{ p: number }>('SELECT global_position AS p FROM events ORDER BY transaction_xid DESC, global_position DESC LIMIT 1');
  const last = Number(rows[0]!.p);
  const names = projections.map((p) => p.name);
  const done = new Map<string, number>();
  const started = nowMs();
  const projector = await startProjector(db, { projections, runner: { batchSize: envNumber('BENCH_BATCH', projectorBatchSize(process.env)) } });
  while (done.size < names.length) {
    const at = await db.query<{ projection: string; p: number }>(
      'SELECT projection, last_position AS p FROM projection_checkpoints WHERE projection = ANY($1::text[])', [names]);
    for (const row of at.rows) if (Number(row.p) === last && !done.has(row.projection)) done.set(row.projection, (nowMs() - started) / 1000);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const seconds = Math.max(...done.values());
  return { projector, perSecond: events / seconds, seconds, each: names.map((n) => ({ name: n, seconds: done.get(n)! })) };
}

/** Open loop: `rate` submits a second spread over the targets (a target's next waits for its last). */
async function steadySubmits(ctx: AppContext, ids: string[], rate: number, seconds: number) {
  const versions = new Map(ids.map((id) => [id, 0]));
  const busy = new Set<string>();
  let sent = 0;
  let skipped = 0;
  const latencies: number[] = [];
  let next = 0;
  const inFlight = new Set<Promise<void>>();
  const started = nowMs();
  const tickMs = 10;
  while (nowMs() - started < seconds * 1000) {
    const due = Math.floor(((nowMs() - started) / 1000) * rate) - sent - skipped;
    for (let i = 0; i < due; i++) {
      const id = ids[next++ % ids.length]!;
      if (busy.has(id)) {
        skipped++;
        continue;
      }
      sent++;
      busy.add(id);
      const v = versions.get(id)!;
      const t0 = nowMs();
      const call = dispatch(ctx, 'palimpsest_submit_edits', {
        target_file_id: id, intent: 'bench', expected_target_version: v, edits: [{ match: marker(v), replace: marker(v + 1) }],
      }).then((r: Record<string, any>) => {
        latencies.push(nowMs() - t0);
        versions.set(id, r.status === 'accepted' ? r.version : (r.current_version ?? v));
        busy.delete(id);
      });
      const tracked: Promise<void> = call.finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
    }
    await new Promise((resolve) => setTimeout(resolve, tickMs));
  }
  await Promise.all(inFlight);
  return { sent, skipped, perSecond: sent / seconds, latency: summarize(latencies) };
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('bench/projector.ts needs DATABASE_URL (PostgreSQL)');
  const seedSeconds = envNumber('BENCH_SEED_SECONDS', 20);
  const clients = envNumber('BENCH_CLIENTS', 16);
  const rate = envNumber('BENCH_RATE', 500);
  const steadySeconds = envNumber('BENCH_SECONDS', 10);
  const bench = await createBenchDatabase(adminUrl);
  const db = await openPostgresDb({ ...benchGuard('postgres'), connectionString: bench.url });
  const ctx = appContext(db);
  // The projector's own pool, as `palimpsest projector` has in its own process (in a gateway it shares the gateway's).
  const projectorDb = await openPostgresDb({ ...benchGuard('postgres'), connectionString: bench.url });
  try {
    await migrate(db);
    await db.query(`CREATE TABLE ${PROBE_TABLE} (global_position bigint NOT NULL, lag_ms double precision NOT NULL)`);
    console.log(`projector bench: ${cpus().length} cores, load ${loadavg().map(f2).join(' ')}; projections ${[...ASYNC_PROJECTIONS.map((p) => p.name), probe.name].join(', ')}`);
    const ids = await createTargets(ctx, envNumber('BENCH_TARGETS', 256), documentOf(1024));
    await appThroughput(ctx, ids, clients, { warmupMs: 0, durationMs: seedSeconds * 1000 });
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::bigint AS n FROM events');
    const events = Number(rows[0]!.n);

    const raw = await rawReadRate(bench.url);
    const projections = [...ASYNC_PROJECTIONS, probe];
    const caught = await catchUpRate(projectorDb, projections, events);
    table(`Catch-up over ${events} events written by real submits`, ['reader', 'events/s', 'seconds', 'vs raw'], [
      ['raw read in commit order (pg, 500/statement)', f2(raw.perSecond), f2(raw.events / raw.perSecond), '100 %'],
      [`projector (${projections.length} projections, all caught up)`, f2(caught.perSecond), f2(caught.seconds), `${((caught.perSecond / raw.perSecond) * 100).toFixed(0)} %`],
      ...caught.each.map((c) => [`  ${c.name} caught up`, f2(events / c.seconds), f2(c.seconds), `${((events / c.seconds / raw.perSecond) * 100).toFixed(0)} %`]),
    ]);

    const before = Number((await db.query<{ p: number }>('SELECT COALESCE(max(global_position), 0) AS p FROM events')).rows[0]!.p);
    const sampled = new Map<string, number[]>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        for (const c of (await projectorStatus(projectorDb, 30)).consumers) sampled.set(c.name, [...(sampled.get(c.name) ?? []), c.lag_seconds * 1000]);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const steady = await steadySubmits(ctx, ids, rate, steadySeconds);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the last batches land
    sampling = false;
    await sampler;
    const lags = (await db.query<{ l: number }>(`SELECT lag_ms AS l FROM ${PROBE_TABLE} WHERE global_position > $1`, [before])).rows.map((r) => Number(r.l));
    const probeLag = summarize(lags);
    table(`Lag under ${rate} submits/s for ${steadySeconds} s (sent ${f2(steady.perSecond)}/s, ${steady.skipped} skipped: target busy)`, ['measure', 'samples', 'p50 ms', 'p99 ms', 'max ms'], [
      ['submit latency (dispatch, for comparison)', steady.latency.samples, f2(steady.latency.p50), f2(steady.latency.p99), f2(steady.latency.max)],
      ['probe: batch applied − recorded_at, per event', probeLag.samples, f2(probeLag.p50), f2(probeLag.p99), f2(probeLag.max)],
      ...[...sampled].map(([name, ms]) => {
        const s = summarize(ms);
        return [`status lag_seconds of ${name}, every 100 ms`, s.samples, f2(s.p50), f2(s.p99), f2(s.max)];
      }),
    ]);
    await caught.projector.close();
  } finally {
    await ctx.wakes.close();
    await projectorDb.close();
    await db.close();
    await bench.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
