import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBenchDatabase } from './bench-database';
import { asDeployed } from './deployed-env';
import { processCpuMs } from './process-cpu';
import { envNumber, table } from './stats';

/**
 * The gateway's first start: `palimpsest api` spawned as a user runs it, timed from spawn to its first
 * 200 from /health, with its peak RSS (VmHWM) at that moment. The baseline is the path every fresh
 * data directory took before the prepared image (initdb + every migration, PostgreSQL's default
 * 128MB shared_buffers), measured in the same run, rounds alternating the scenarios.
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node dist/bench/first-start.js
 *
 * Env: BENCH_FIRST_START_ROUNDS (3). Without DATABASE_URL the PostgreSQL row is left out.
 */

const CLI = join(__dirname, '..', '..', 'apps', 'cli', 'bin', 'palimpsest.js');
const ROUNDS = Math.round(envNumber('BENCH_FIRST_START_ROUNDS', 3));
const OLD_SHARED_BUFFERS = '128MB';

interface Start {
  ms: number;
  /** The gateway's user+system CPU up to the first 200: steadier than wall time on a shared machine. */
  cpuMs: number;
  rssMb: number;
  /** ms from spawn to the store's "embedded database ready" line (fresh PGlite directories only). */
  storeReadyMs?: number;
}

interface Scenario {
  label: string;
  env: (dirs: Dirs) => NodeJS.ProcessEnv;
}

interface Dirs {
  root: string;
  postgresUrl?: string;
}

const pglite = (dir: string, sharedBuffers: string, image: boolean): NodeJS.ProcessEnv => ({
  PALIMPSEST_DATA_DIR: dir,
  PALIMPSEST_PGLITE_SHARED_BUFFERS: sharedBuffers,
  ...(image ? {} : { PALIMPSEST_PGLITE_IMAGE: 'off' }),
});

const SCENARIOS: Scenario[] = [
  { label: 'before: fresh, initdb + migrations, shared_buffers 128MB', env: (d) => pglite(join(d.root, 'old'), OLD_SHARED_BUFFERS, false) },
  { label: 'before: second start, shared_buffers 128MB', env: (d) => pglite(join(d.root, 'old'), OLD_SHARED_BUFFERS, false) },
  { label: 'after: fresh, prepared image, shared_buffers 32MB', env: (d) => pglite(join(d.root, 'new'), '32MB', true) },
  { label: 'after: second start, shared_buffers 32MB', env: (d) => pglite(join(d.root, 'new'), '32MB', true) },
  { label: 'fresh, initdb + migrations (no image), 32MB', env: (d) => pglite(join(d.root, 'no-image'), '32MB', false) },
  { label: 'fresh, prepared image, 128MB', env: (d) => pglite(join(d.root, 'image-128'), OLD_SHARED_BUFFERS, true) },
  { label: 'PostgreSQL: fresh database (migrations)', env: (d) => ({ DATABASE_URL: d.postgresUrl }) },
];

function vmHwmMb(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health`)).status === 200;
  } catch {
    return false;
  }
}

/** One start: spawn, wait for the URL on stderr, poll /health until 200, read VmHWM, stop. */
async function start(env: NodeJS.ProcessEnv): Promise<Start> {
  const { DATABASE_URL: _inherited, PALIMPSEST_DATA_DIR: _dir, ...base } = process.env;
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [CLI, 'api', '--port', '0'], { env: { ...base, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let storeReadyMs: number | undefined;
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`palimpsest api exited ${code}: ${stderr}`))));
  const url = await Promise.race([
    exited,
    new Promise<string>((resolve) => {
      child.stderr!.on('data', (chunk) => {
        stderr += chunk;
        if (storeReadyMs === undefined && stderr.includes('embedded database ready')) storeReadyMs = performance.now() - spawnedAt;
        const found = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
        if (found) resolve(found);
      });
    }),
  ]);
  while (!(await healthy(url))) await new Promise((resolve) => setTimeout(resolve, 10));
  const ms = performance.now() - spawnedAt;
  const rssMb = vmHwmMb(child.pid!);
  const cpuMs = processCpuMs(child.pid);
  const stopped = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await stopped;
  return { ms, cpuMs, rssMb, storeReadyMs };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const range = (xs: number[], f: (x: number) => string) => `${f(Math.min(...xs))}–${f(Math.max(...xs))}`;
const s1 = (ms: number) => (ms / 1000).toFixed(2);
const mb = (x: number) => x.toFixed(0);

async function main(): Promise<void> {
  const deployed = asDeployed();
  const adminUrl = process.env.DATABASE_URL;
  const scenarios = adminUrl ? SCENARIOS : SCENARIOS.filter((s) => !s.label.startsWith('PostgreSQL'));
  console.log(
    `palimpsest first-start bench: Node ${process.version}, ${cpus().length} CPUs (load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}); ` +
      `${ROUNDS} rounds; ${deployed}${adminUrl ? '' : '; no DATABASE_URL: PostgreSQL left out'}`,
  );
  const results = new Map<string, Start[]>(scenarios.map((s) => [s.label, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const root = await mkdtemp(join(tmpdir(), 'palimpsest-first-start-'));
    const database = adminUrl ? await createBenchDatabase(adminUrl) : undefined;
    try {
      for (const scenario of scenarios) {
        const result = await start(scenario.env({ root, postgresUrl: database?.url }));
        results.get(scenario.label)!.push(result);
        process.stderr.write(`round ${round + 1}: ${scenario.label}: ${s1(result.ms)} s, ${mb(result.rssMb)} MB\n`);
      }
    } finally {
      await database?.drop();
      await rm(root, { recursive: true, force: true });
    }
  }
  const rows = scenarios.map((s) => {
    const runs = results.get(s.label)!;
    const ready = runs.flatMap((r) => (r.storeReadyMs === undefined ? [] : [r.storeReadyMs]));
    const col = (f: (r: Start) => number, fmt: (x: number) => string) => [fmt(median(runs.map(f))), range(runs.map(f), fmt)];
    return [s.label, ...col((r) => r.ms, s1), ready.length ? s1(median(ready)) : '', ...col((r) => r.cpuMs, s1), ...col((r) => r.rssMb, mb)];
  });
  table(
    'First start of `palimpsest api` to the first 200 from /health (median of the rounds)',
    ['scenario', 's to 200', 'range', 's to store ready', 'CPU s', 'range', 'peak RSS MB', 'range'],
    rows,
  );
  const med = (label: string, f: (r: Start) => number) => median(results.get(label)!.map(f));
  const ratio = (before: string, after: string, f: (r: Start) => number) => (med(before, f) / med(after, f)).toFixed(2);
  const [fresh0, second0, fresh1, second1] = SCENARIOS.map((s) => s.label) as [string, string, string, string];
  const ratios = (before: string, after: string) =>
    `time ${ratio(before, after, (r) => r.ms)}×, CPU ${ratio(before, after, (r) => r.cpuMs)}×, peak RSS ${ratio(before, after, (r) => r.rssMb)}×`;
  console.log(`fresh data directory, before / after: ${ratios(fresh0, fresh1)}`);
  console.log(`second start, before / after: ${ratios(second0, second1)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
