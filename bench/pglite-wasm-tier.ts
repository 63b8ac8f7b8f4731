import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { openDb } from '@palimpsest/store/open-db';
import { asDeployed, benchStore } from './deployed-env';
import { appThroughput, createTargets, documentOf } from './scenarios';
import { envNumber, f2, table } from './stats';

/**
 * The embedded store at each WebAssembly tier (PALIMPSEST_PGLITE_WASM): each round starts one fresh
 * process per tier (alternating which goes first), which opens a data directory from the prepared
 * image, then runs guarded 1-edit submits through dispatch() on 64 targets. Reported per tier: the
 * store's open time, submits per second, this process's CPU per submit, and its peak RSS. `optimized`
 * (V8's default) is the baseline the ratio is taken against.
 *
 *   npm run build && node dist/bench/pglite-wasm-tier.js
 *
 * Env: BENCH_TIER_ROUNDS (3), BENCH_SECONDS (8), BENCH_WARMUP_SECONDS (2), BENCH_TARGETS (64), BENCH_CLIENTS (8).
 */

const ROUNDS = Math.round(envNumber('BENCH_TIER_ROUNDS', 3));
const SECONDS = envNumber('BENCH_SECONDS', 8);
const WARMUP = envNumber('BENCH_WARMUP_SECONDS', 2);
const TARGETS = Math.round(envNumber('BENCH_TARGETS', 64));
const CLIENTS = Math.round(envNumber('BENCH_CLIENTS', 8));
const TIERS = ['optimized', 'baseline'] as const;

interface Sample {
  openMs: number;
  perSecond: number;
  cpuMsPerOp: number;
  hwmMb: number;
}

/** In the child: open, submit, print one JSON line. */
async function child(dataDir: string): Promise<void> {
  const opened = performance.now();
  const db = await openDb({ dataDir }, benchStore());
  const openMs = performance.now() - opened;
  try {
    const ctx = appContext(db);
    const ids = await createTargets(ctx, TARGETS, documentOf(1024));
    const cpu = process.cpuUsage();
    const wall = performance.now();
    const r = await appThroughput(ctx, ids, CLIENTS, { warmupMs: WARMUP * 1000, durationMs: SECONDS * 1000 });
    const used = process.cpuUsage(cpu);
    // The process's CPU over the whole loop (warm-up included) per second, over the submits per second.
    const cpuMsPerOp = ((used.user + used.system) / 1000 / (performance.now() - wall)) * (1000 / r.perSecond);
    const { readFileSync } = await import('node:fs');
    const hwmMb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) / 1024;
    const sample: Sample = { openMs, perSecond: r.perSecond, cpuMsPerOp, hwmMb };
    process.stdout.write(JSON.stringify(sample) + '\n');
  } finally {
    await db.close();
  }
}

async function measure(tier: string, root: string, round: number): Promise<Sample> {
  const dataDir = join(root, `${tier}-${round}`);
  const { stdout } = await promisify(execFile)(process.execPath, [__filename, '--child', dataDir], {
    env: { ...process.env, PALIMPSEST_PGLITE_WASM: tier },
    timeout: (SECONDS + WARMUP) * 1000 + 180_000,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as Sample;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const deployed = asDeployed();
  console.log(
    `palimpsest PGlite WebAssembly tier bench: Node ${process.version}, ${cpus().length} CPUs (load ${loadavg().map((x) => x.toFixed(2)).join(' ')}); ` +
      `${ROUNDS} rounds, ${TARGETS} targets of 1 KB, ${CLIENTS} clients, ${SECONDS} s after ${WARMUP} s warm-up; ${deployed}`,
  );
  const root = await mkdtemp(join(tmpdir(), 'palimpsest-wasm-tier-'));
  const samples = new Map<string, Sample[]>(TIERS.map((t) => [t, []]));
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 ? TIERS : [...TIERS].reverse();
      for (const tier of order) {
        const s = await measure(tier, root, round);
        samples.get(tier)!.push(s);
        console.log(`round ${round}: ${tier}: open ${f2(s.openMs)} ms, ${f2(s.perSecond)} submits/s, ${f2(s.cpuMsPerOp)} CPU ms/submit, peak RSS ${f2(s.hwmMb)} MB`);
      }
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  const row = (tier: string) => {
    const s = samples.get(tier)!;
    return [tier, f2(median(s.map((x) => x.openMs))), f2(median(s.map((x) => x.perSecond))), f2(median(s.map((x) => x.cpuMsPerOp))), f2(median(s.map((x) => x.hwmMb)))];
  };
  table('Medians of the rounds', ['tier', 'open ms', 'submits/s', 'CPU ms/submit', 'peak RSS MB'], TIERS.map(row));
  const m = (tier: string, k: keyof Sample) => median(samples.get(tier)!.map((x) => x[k]));
  console.log(
    `baseline / optimized: submits/s ${f2(m('baseline', 'perSecond') / m('optimized', 'perSecond'))}×, CPU per submit ${f2(m('baseline', 'cpuMsPerOp') / m('optimized', 'cpuMsPerOp'))}×, ` +
      `open ${f2(m('baseline', 'openMs') / m('optimized', 'openMs'))}×, peak RSS ${f2(m('baseline', 'hwmMb') - m('optimized', 'hwmMb'))} MB`,
  );
}

const childAt = process.argv.indexOf('--child');
(childAt > 0 ? child(process.argv[childAt + 1]!) : main()).catch((error) => {
  console.error(error);
  process.exit(1);
});
