import { generateKeyPairSync } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyBundleFile } from '@palimpsest/application/audit/bundle-file.verifier';
import { bundleLines } from '@palimpsest/core/audit/bundle-lines';
import { syntheticBundle } from '@palimpsest/core/audit/test-support/synthetic-bundle';
import { appContext } from '@palimpsest/composition/app-context.builder';
import type { AuditBundle } from '@palimpsest/core/audit/audit-bundle';
import { leafHash, rootOf, verifyInclusion } from '@palimpsest/core/audit/merkle-log';
import { inclusionProof } from '@palimpsest/core/audit/merkle-nodes';
import { verifyBundle } from '@palimpsest/core/audit/verify-bundle';
import { auditSigner } from '@palimpsest/projections/audit/audit-signer';
import { exportAuditBundle } from '@palimpsest/projections/audit/audit-export.queries';
import { startProjector } from '@palimpsest/projector/projector';
import { migrate } from '@palimpsest/store/migrate';
import { openPostgresDb } from '@palimpsest/store/postgres/pg-db';
import { createBenchDatabase } from './bench-database';
import { benchGuard } from './deployed-env';
import { appThroughput, createTargets, documentOf } from './scenarios';
import { envNumber, f2, nowMs, table } from './stats';

/**
 * The tamper-evident log, in one run:
 *  1. submit throughput on 64 targets (closed loop) with the Merkle log's reactor running beside it, and
 *     without (the hash chain is written by every append either way: the run of the commit before it is
 *     the chain-off figure), plus the chain's Node cost per event (canonical JSON + SHA-256);
 *  2. offline verification of a synthetic bundle of BENCH_EVENTS events (chains, leaves, signed root), events/s,
 *     its payloads in canonical member order as `palimpsest export` writes them, beside the same bundle in
 *     jsonb member order (the baseline: exports before that), then the same bundle written as a file of lines
 *     and verified from it as `palimpsest verify` does (read and parsed), in one thread and in worker threads
 *     side by side; and of the run's own log without and with the engines re-run (the replay verifier's rate, apart);
 *  3. one inclusion proof verified, at that size.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run build && node dist/bench/audit-log.js
 *
 * Env: BENCH_SECONDS (each throughput phase, 20), BENCH_CLIENTS (32), BENCH_TARGETS (64), BENCH_EVENTS
 * (1000000), BENCH_VERIFY_WORKERS (os.availableParallelism()), BENCH_SKIP_DB=1 (only 2 and 3).
 */

const signer = auditSigner(generateKeyPairSync('ed25519').privateKey, 'palimpsest.bench', 'palimpsest.bench/log');

async function throughput(withReactor: boolean): Promise<{ perSecond: number; cpu: number; bundle: AuditBundle | null }> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('set DATABASE_URL (or BENCH_SKIP_DB=1)');
  const bench = await createBenchDatabase(adminUrl);
  const db = await openPostgresDb({ ...benchGuard('postgres'), connectionString: bench.url });
  const projectorDb = await openPostgresDb({ ...benchGuard('postgres'), connectionString: bench.url });
  try {
    await migrate(db);
    const ctx = appContext(db);
    const ids = await createTargets(ctx, envNumber('BENCH_TARGETS', 64), documentOf(1024));
    let projector = withReactor ? await startProjector(projectorDb, { projections: [], audit: { signer, policy: { everyEvents: 1000, everySeconds: 10 } } }) : null;
    try {
      const seconds = envNumber('BENCH_SECONDS', 20);
      const r = await appThroughput(ctx, ids, envNumber('BENCH_CLIENTS', 32), { warmupMs: Math.min(2000, seconds * 200), durationMs: seconds * 1000 });
      await projector?.close();
      projector = null;
      // The log the run wrote, real acceptances of 1 KB documents: what the engine re-run is timed on.
      const bundle = withReactor ? await exportAuditBundle(db, signer.verifierKey, null) : null;
      return { perSecond: r.perSecond, cpu: r.clientCpuMsPerOp, bundle };
    } finally {
      await projector?.close();
    }
  } finally {
    await projectorDb.close();
    await db.close();
    await bench.drop();
  }
}

/** The same real bundle verified without and with the engines re-run: the replay verifier's own rate, apart. */
function engineRerun(bundle: AuditBundle): string[][] {
  const timed = (engines: boolean) => {
    const t0 = nowMs();
    const report = verifyBundle(bundle, undefined, { engines });
    if (!report.ok) throw new Error(`the run's bundle did not verify: ${JSON.stringify(report.failure)}`);
    return { seconds: (nowMs() - t0) / 1000, report };
  };
  const plain = timed(false);
  const full = timed(true);
  const n = bundle.events.length;
  return [
    [`the run's own log (${n} events, ${full.report.replayed?.acceptances ?? 0} acceptances): verify without the engines, events/s`, f2(n / plain.seconds)],
    ['the same, the engines re-run over every target stream, events/s', f2(n / full.seconds)],
  ];
}

function verifySeconds(bundle: AuditBundle): number {
  const started = nowMs();
  const report = verifyBundle(bundle, undefined, { engines: false });
  if (!report.ok) throw new Error(`the bundle did not verify: ${JSON.stringify(report.failure)}`);
  return (nowMs() - started) / 1000;
}

/** The bundle's payloads with their members as PostgreSQL's jsonb gives them back: shortest name first, then by bytes. */
function inJsonbOrder(bundle: AuditBundle): AuditBundle {
  const reorder = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(reorder);
    if (value === null || typeof value !== 'object') return value;
    const keys = Object.keys(value).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(keys.map((k) => [k, reorder((value as Record<string, unknown>)[k])]));
  };
  return { ...bundle, events: bundle.events.map((e) => ({ ...e, data: reorder(e.data), metadata: reorder(e.metadata) as Record<string, unknown> })) };
}

/**
 * The bundle as `palimpsest export` writes it (one event a line) verified from the file as `palimpsest verify`
 * does, reading and parsing included: in this thread, then spread over worker threads.
 */
async function fileVerification(bundle: AuditBundle): Promise<string[][]> {
  const dir = mkdtempSync(join(tmpdir(), 'palimpsest-bench-bundle-'));
  const file = join(dir, 'bundle.jsonl');
  try {
    const fd = openSync(file, 'w');
    let batch = '';
    for (const line of bundleLines(bundle)) {
      batch += line;
      if (batch.length < 1 << 20) continue;
      writeSync(fd, batch);
      batch = '';
    }
    writeSync(fd, batch);
    closeSync(fd);
    const n = bundle.events.length;
    const workers = envNumber('BENCH_VERIFY_WORKERS', availableParallelism());
    // Events per CPU-second of the whole process (every thread) beside events/s: on a shared machine the wall clock says how busy it was.
    const timed = async (threads: number) => {
      const [t0, cpu0] = [nowMs(), process.cpuUsage()];
      const report = await verifyBundleFile(file, { workers: threads, engines: false });
      if (!report.ok) throw new Error(`the bundle file did not verify: ${JSON.stringify(report.failure)}`);
      const cpu = process.cpuUsage(cpu0);
      return `${f2(n / ((nowMs() - t0) / 1000))} (${f2(n / ((cpu.user + cpu.system) / 1e6))} per CPU-second)`;
    };
    return [
      [`the same from a bundle file of lines (${Math.round(statSync(file).size / 1e6)} MB, read and parsed), one thread, events/s`, await timed(1)],
      [`the same, ${workers} worker threads (os.availableParallelism ${availableParallelism()}), events/s`, await timed(workers)],
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const rows: string[][] = [];
  if (process.env.BENCH_SKIP_DB !== '1') {
    const off = await throughput(false);
    const on = await throughput(true);
    const targets = envNumber('BENCH_TARGETS', 64);
    rows.push([`submits/s, ${targets} targets, Merkle reactor off`, f2(off.perSecond)], [`submits/s, ${targets} targets, Merkle reactor on`, f2(on.perSecond)]);
    rows.push(['change with the reactor', `${f2(((on.perSecond - off.perSecond) / off.perSecond) * 100)} %`]);
    if (on.bundle) rows.push(...engineRerun(on.bundle));
  }
  const count = envNumber('BENCH_EVENTS', 1_000_000);
  const { bundle, leaves, chainUsPerEvent } = syntheticBundle(count, 64);
  rows.push(['chain + leaf in Node, µs/event (canonical JSON, 2 SHA-256, leaf hash)', f2(chainUsPerEvent)]);
  const seconds = verifySeconds(bundle);
  rows.push([`offline verify of ${count} events (chains, leaves, signed root), events/s`, f2(count / seconds)]);
  rows.push(['baseline: the same, payloads in jsonb member order (exports before canonical order), events/s', f2(count / verifySeconds(inJsonbOrder(bundle)))]);
  rows.push(...(await fileVerification(bundle)));
  const index = Math.floor(count / 3);
  const path = inclusionProof(leaves, index);
  const root = rootOf(leaves);
  const reps = 1000;
  const t0 = nowMs();
  for (let i = 0; i < reps; i++) if (!verifyInclusion(index, count, leaves[index]!, path, root)) throw new Error('proof did not verify');
  rows.push([`one inclusion proof verified (${path.length} hashes, ${path.length * 32} bytes), ms`, f2((nowMs() - t0) / reps)]);
  table('The tamper-evident log', ['measure', 'value'], rows);
}

void main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
