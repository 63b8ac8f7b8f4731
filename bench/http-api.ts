import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { createToken } from '@palimpsest/api/auth/api-tokens';
import { SCOPES } from '@palimpsest/api/routes/route-table';
import { migrate } from '@palimpsest/store/migrate';
import { openPostgresDb } from '@palimpsest/store/postgres/pg-db';
import { createBenchDatabase, serverFacts } from './bench-database';
import { cannon, createTargets, startGateway, type Gateway } from './http-gateway';
import { asDeployed, benchGuard } from './deployed-env';
import { appThroughput, assignTargets, documentOf, rawEdit, rawSetup } from './scenarios';
import { postgresCpuSince, processCpuMs } from './process-cpu';
import { nowMs, runClosedLoop, summarize } from './stats';

/**
 * The HTTP gateway under load: autocannon against `palimpsest api` (a child process on real PostgreSQL)
 * sending guarded 1-edit tx/1 submits spread over 64 targets, beside the raw-SQL baseline and the
 * in-process dispatch() measured in the same run, on the same fresh database. Rounds repeat the three
 * paths back to back, because a shared machine's load moves between them.
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node dist/bench/http-api.js
 *
 * Env: BENCH_HTTP_SECONDS (30), BENCH_HTTP_CONNECTIONS (32), BENCH_TARGETS (64), BENCH_WARMUP_SECONDS (2), BENCH_HTTP_ROUNDS (2),
 * BENCH_HTTP_LOG_LEVEL (info: one JSON log line per request, as in production).
 */

const env = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const SECONDS = env('BENCH_HTTP_SECONDS', 30);
const CONNECTIONS = env('BENCH_HTTP_CONNECTIONS', 32);
const TARGETS = env('BENCH_TARGETS', 64);
const WARMUP = env('BENCH_WARMUP_SECONDS', 2);
const ROUNDS = env('BENCH_HTTP_ROUNDS', 2);

interface Row {
  path: string;
  perSecond: number;
  p50: number;
  p99: number;
  note: string;
}

/** CPU spent over a window by the PostgreSQL server, this bench process and (if any) the gateway, in ms. */
function cpuWindow(gatewayPid?: number) {
  const start = { pg: postgresCpuSince(), bench: process.cpuUsage(), gateway: processCpuMs(gatewayPid) };
  return (ops: number) => {
    const bench = process.cpuUsage(start.bench);
    const per = (ms: number) => (ms / ops).toFixed(2);
    const parts = [`PostgreSQL ${per(start.pg())}`];
    if (gatewayPid) parts.push(`gateway ${per(processCpuMs(gatewayPid) - start.gateway)}`);
    parts.push(`bench process ${per((bench.user + bench.system) / 1000)}`);
    return `CPU ms/op: ${parts.join(', ')}`;
  };
}

async function rawRow(pool: pg.Pool, seconds: number): Promise<Row> {
  const ids = await rawSetup(pool, TARGETS, documentOf(1024));
  const owned = assignTargets(ids, CONNECTIONS);
  const turn = new Array<number>(CONNECTIONS).fill(0);
  const samples: number[] = [];
  let cpu = cpuWindow();
  const window = await runClosedLoop(
    CONNECTIONS,
    WARMUP * 1000,
    seconds * 1000,
    async (c) => {
      const t0 = nowMs();
      await rawEdit(pool, owned[c]![turn[c]++ % owned[c]!.length]!);
      return nowMs() - t0;
    },
    (ms, inWindow) => {
      if (inWindow) samples.push(ms);
      else if (!samples.length) cpu = cpuWindow(); // restarts until the measured window begins
    },
  );
  const s = summarize(samples);
  return { path: 'raw SQL (pg, same statements shape)', perSecond: window.perSecond, p50: s.p50, p99: s.p99, note: `committed tx/s; ${cpu(samples.length)}` };
}

async function httpRow(gateway: Gateway, token: string, ids: string[], versions: Map<string, number>): Promise<Row> {
  await cannon(gateway.url, token, ids, WARMUP, versions, CONNECTIONS);
  const cpu = cpuWindow(gateway.child.pid);
  const { result, accepted } = await cannon(gateway.url, token, ids, SECONDS, versions, CONNECTIONS);
  return {
    path: 'HTTP: autocannon → palimpsest api',
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    note: `${accepted}/${result.requests.total} accepted, ${result.non2xx} non-2xx, ${result.errors} errors; ${cpu(result.requests.total)}`,
  };
}

function print(round: number, rows: Row[]): void {
  const raw = rows[0]!.perSecond;
  const cell = (x: number) => (Number.isNaN(x) ? '' : x.toFixed(1)).padStart(7);
  console.log(`\nround ${round}: path                            req/s  p50 ms  p99 ms  vs raw SQL  notes`);
  for (const r of rows) {
    console.log(`  ${r.path.padEnd(37)} ${r.perSecond.toFixed(1).padStart(7)} ${cell(r.p50)} ${cell(r.p99)}  ${((r.perSecond / raw) * 100).toFixed(0).padStart(8)} %  ${r.note}`);
  }
  console.log(`  HTTP / raw SQL = ${(rows[1]!.perSecond / raw).toFixed(2)} (aim ≥ 0.60); HTTP / dispatch() = ${(rows[1]!.perSecond / rows[2]!.perSecond).toFixed(2)}`);
}

async function main(): Promise<void> {
  const deployed = asDeployed();
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('set DATABASE_URL to a PostgreSQL server (a fresh database is created there and dropped after)');
  const facts = await serverFacts(adminUrl);
  console.log(
    `palimpsest http bench: PostgreSQL ${facts.server_version} (synchronous_commit=${facts.synchronous_commit}), Node ${process.version}, ` +
      `${cpus().length} CPUs (load ${loadavg().map((x) => x.toFixed(2)).join(' ')}); ${CONNECTIONS} connections, ${TARGETS} targets of 1 KB, ` +
      `${SECONDS} s measured after ${WARMUP} s warm-up per path, ${ROUNDS} rounds; every pool = ${CONNECTIONS} connections; ${deployed}`,
  );
  const bench = await createBenchDatabase(adminUrl);
  const db = await openPostgresDb({ ...benchGuard('postgres'), connectionString: bench.url, poolMax: CONNECTIONS, onError: () => undefined });
  const pool = new pg.Pool({ connectionString: bench.url, max: CONNECTIONS });
  pool.on('error', () => undefined);
  let gateway: Gateway | undefined;
  try {
    await migrate(db);
    const { token } = await createToken(db, { name: 'bench', scopes: [...SCOPES] });
    gateway = await startGateway(bench.url, CONNECTIONS);
    const ids = await createTargets(gateway.url, token, TARGETS);
    const versions = new Map(ids.map((id) => [id, 0]));
    const ctx = appContext(db);
    for (let round = 1; round <= ROUNDS; round++) {
      const raw = await rawRow(pool, SECONDS);
      const http = await httpRow(gateway, token, ids, versions);
      const app = await appThroughput(ctx, ids, CONNECTIONS, { warmupMs: WARMUP * 1000, durationMs: SECONDS * 1000 });
      const dispatchRow = { path: 'dispatch() in process (no HTTP)', perSecond: app.perSecond, p50: NaN, p99: NaN, note: `bench Node CPU ${app.clientCpuMsPerOp.toFixed(2)} ms/tx` };
      print(round, [raw, http, dispatchRow]);
    }
  } finally {
    gateway?.child.kill('SIGTERM');
    await pool.end();
    await db.close();
    await new Promise((r) => setTimeout(r, 1000));
    await bench.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
