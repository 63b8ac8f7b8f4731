import { cpus, loadavg } from 'node:os';
import { createToken } from '@palimpsest/api/auth/api-tokens';
import { SCOPES } from '@palimpsest/api/routes/route-table';
import { migrate } from '@palimpsest/store/migrate';
import { openPostgresDb } from '@palimpsest/store/postgres/pg-db';
import { createBenchDatabase, serverFacts } from './bench-database';
import { asDeployed, benchGuard } from './deployed-env';
import { cannon, createTargets, startGateway, type Gateway } from './http-gateway';
import { postgresCpuSince, processCpuMs } from './process-cpu';
import { envNumber, f2, machineCpu, table } from './stats';

/**
 * One gateway against two on one PostgreSQL database: the same guarded 1-edit submits over HTTP
 * (autocannon, as bench/http-api.ts sends them), first all to gateway A, then half the connections and
 * half the targets to each of A and B at once. Rounds alternate the two. Beside the throughput it
 * prints the CPU each process spent per request and how busy the whole machine was, because on a
 * machine with few cores two gateways share the cores with PostgreSQL and the load generator.
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node dist/bench/two-gateways.js
 *
 * Env: BENCH_HTTP_SECONDS (15), BENCH_HTTP_CONNECTIONS (32, split between the gateways), BENCH_TARGETS (64),
 * BENCH_WARMUP_SECONDS (2), BENCH_HTTP_ROUNDS (2).
 */

const SECONDS = envNumber('BENCH_HTTP_SECONDS', 15);
const CONNECTIONS = Math.round(envNumber('BENCH_HTTP_CONNECTIONS', 32));
const TARGETS = Math.round(envNumber('BENCH_TARGETS', 64));
const WARMUP = envNumber('BENCH_WARMUP_SECONDS', 2);
const ROUNDS = Math.round(envNumber('BENCH_HTTP_ROUNDS', 2));

interface Leg {
  gateway: Gateway;
  ids: string[];
  connections: number;
}

interface Row {
  setup: string;
  perSecond: number;
  accepted: number;
  gatewayCpu: number[];
  postgresCpu: number;
  machineBusy: number;
}

async function run(setup: string, legs: Leg[], token: string, versions: Map<string, number>): Promise<Row> {
  await Promise.all(legs.map((l) => cannon(l.gateway.url, token, l.ids, WARMUP, versions, l.connections)));
  const pg = postgresCpuSince();
  const cpu0 = legs.map((l) => processCpuMs(l.gateway.child.pid));
  const m0 = machineCpu();
  const results = await Promise.all(legs.map((l) => cannon(l.gateway.url, token, l.ids, SECONDS, versions, l.connections)));
  const m1 = machineCpu();
  const total = results.reduce((a, r) => a + r.result.requests.total, 0);
  return {
    setup,
    perSecond: results.reduce((a, r) => a + r.result.requests.average, 0),
    accepted: results.reduce((a, r) => a + r.accepted, 0),
    gatewayCpu: legs.map((l, i) => (processCpuMs(l.gateway.child.pid) - cpu0[i]!) / total),
    postgresCpu: pg() / total,
    machineBusy: (m1.busy - m0.busy) / (m1.total - m0.total),
  };
}

async function main(): Promise<void> {
  const deployed = asDeployed();
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('set DATABASE_URL to a PostgreSQL server (a fresh database is created there and dropped after)');
  const facts = await serverFacts(adminUrl);
  console.log(
    `palimpsest two-gateway bench: PostgreSQL ${facts.server_version}, Node ${process.version}, ${cpus().length} CPUs ` +
      `(load ${loadavg().map((x) => x.toFixed(2)).join(' ')}); ${CONNECTIONS} connections, ${TARGETS} targets of 1 KB, ${SECONDS} s after ${WARMUP} s warm-up, ${ROUNDS} rounds; ${deployed}`,
  );
  const bench = await createBenchDatabase(adminUrl);
  const db = await openPostgresDb({ ...benchGuard('postgres'), connectionString: bench.url, poolMax: 2, onError: () => undefined });
  const gateways: Gateway[] = [];
  const rows: Row[] = [];
  try {
    await migrate(db);
    const { token } = await createToken(db, { name: 'bench', scopes: [...SCOPES] });
    gateways.push(await startGateway(bench.url, CONNECTIONS), await startGateway(bench.url, CONNECTIONS));
    const [a, b] = gateways as [Gateway, Gateway];
    const ids = await createTargets(a.url, token, TARGETS);
    const versions = new Map(ids.map((id) => [id, 0]));
    const half = CONNECTIONS / 2;
    for (let round = 1; round <= ROUNDS; round++) {
      const one = () => run('one gateway', [{ gateway: a, ids, connections: CONNECTIONS }], token, versions);
      const two = () =>
        run('two gateways', [{ gateway: a, ids: ids.slice(0, TARGETS / 2), connections: half }, { gateway: b, ids: ids.slice(TARGETS / 2), connections: half }], token, versions);
      for (const next of round % 2 ? [one, two] : [two, one]) {
        const row = await next();
        rows.push(row);
        console.log(`round ${round}: ${row.setup}: ${f2(row.perSecond)} req/s, machine busy ${(row.machineBusy * 100).toFixed(0)} %`);
      }
    }
  } finally {
    for (const g of gateways) g.child.kill('SIGTERM');
    await Promise.all(gateways.map((g) => new Promise((r) => (g.child.exitCode === null ? g.child.once('exit', r) : r(null)))));
    await db.close();
    await bench.drop();
  }
  table(
    'Guarded 1-edit submits over HTTP (each round)',
    ['setup', 'req/s', 'accepted', 'gateway CPU ms/req', 'PostgreSQL CPU ms/req', 'machine busy'],
    rows.map((r) => [r.setup, f2(r.perSecond), r.accepted, r.gatewayCpu.map(f2).join(' + '), f2(r.postgresCpu), `${(r.machineBusy * 100).toFixed(0)} %`]),
  );
  const mean = (setup: string) => {
    const xs = rows.filter((r) => r.setup === setup).map((r) => r.perSecond);
    return xs.reduce((x, y) => x + y, 0) / xs.length;
  };
  console.log(`two gateways / one gateway: ${f2(mean('two gateways') / mean('one gateway'))}× (aim ≥ 1.6× on a machine with the cores for it)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
