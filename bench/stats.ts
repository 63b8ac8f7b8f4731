import { join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';

/** Small numeric helpers for the benchmark: percentiles by nearest rank on a sorted copy. */

export function percentile(sortedMs: number[], p: number): number {
  if (sortedMs.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sortedMs.length);
  return sortedMs[Math.min(sortedMs.length, Math.max(1, rank)) - 1]!;
}

export interface LatencySummary {
  samples: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
}

export function summarize(samplesMs: number[]): LatencySummary {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    samples: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: sorted.length ? sum / sorted.length : NaN,
    max: sorted.length ? sorted[sorted.length - 1]! : NaN,
  };
}

export const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

export interface WindowResult {
  /** Operations completed inside the measured window. */
  ops: number;
  /** Length of the measured window in seconds. */
  seconds: number;
  perSecond: number;
  /** CPU time this Node process used per operation in the window (ms), all threads. */
  clientCpuMsPerOp: number;
  /** Share of the machine's CPU time that was busy in the window (every process, PostgreSQL included). */
  machineBusy: number;
}

interface CpuSnapshot {
  process: NodeJS.CpuUsage;
  busy: number;
  total: number;
}

/** Machine-wide CPU counters from /proc/stat (Linux); zeros elsewhere. */
export function machineCpu(): { busy: number; total: number } {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = fields[3]! + fields[4]!; // idle + iowait
    return { busy: total - idle, total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

function cpuSnapshot(): CpuSnapshot {
  return { process: process.cpuUsage(), ...machineCpu() };
}

/**
 * Runs `clients` loops of `op` for warmup + duration. Loops start together; an operation counts when
 * it completes inside the measured window (after the warm-up). No loop starts an operation after the end.
 * `onComplete` sees each operation's value, so callers can count kinds separately.
 */
export async function runClosedLoop<T>(
  clients: number,
  warmupMs: number,
  durationMs: number,
  op: (client: number) => Promise<T>,
  onComplete?: (value: T, inWindow: boolean) => void,
): Promise<WindowResult> {
  const start = nowMs();
  const from = start + warmupMs;
  const to = from + durationMs;
  let ops = 0;
  let first: CpuSnapshot | undefined;
  let last: CpuSnapshot | undefined;
  const t1 = setTimeout(() => (first = cpuSnapshot()), warmupMs);
  const t2 = setTimeout(() => (last = cpuSnapshot()), warmupMs + durationMs);
  const loop = async (client: number) => {
    while (nowMs() < to) {
      const value = await op(client);
      const t = nowMs();
      const inWindow = t >= from && t <= to;
      if (inWindow) ops++;
      onComplete?.(value, inWindow);
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, c) => loop(c)));
  clearTimeout(t1);
  clearTimeout(t2);
  first ??= cpuSnapshot();
  last ??= cpuSnapshot();
  const end = last.process;
  const clientCpuMs = (end.user - first.process.user + end.system - first.process.system) / 1000;
  const seconds = durationMs / 1000;
  return {
    ops,
    seconds,
    perSecond: ops / seconds,
    clientCpuMsPerOp: ops ? clientCpuMs / ops : NaN,
    machineBusy: last.total > first.total ? (last.busy - first.busy) / (last.total - first.total) : NaN,
  };
}

/**
 * A module of the code before, from the dist/ directory BENCH_REPLAY_BASELINE names (a build of the
 * previous commit), for before/after columns measured in the same run; null when unset (it says so).
 */
export function baselineModule<T>(...path: string[]): T | null {
  const dir = process.env.BENCH_REPLAY_BASELINE;
  console.log(dir ? `before: ${dir}` : '(no BENCH_REPLAY_BASELINE: before columns empty)');
  return dir ? (require(join(resolve(dir), ...path)) as T) : null;
}

/** The fastest of `runs` runs of `fn`, in ms. */
export async function best(runs: number, fn: () => Promise<unknown>): Promise<number> {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = nowMs();
    await fn();
    min = Math.min(min, nowMs() - t0);
  }
  return min;
}

/** A non-negative number from the environment, or the fallback when unset. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a non-negative number, got ${raw}`);
  return value;
}

export const f2 = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '–');

/** Prints an aligned text table: the first column left-aligned, the others right-aligned. */
export function table(title: string, header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of cells.slice(1)) console.log(line(r));
}
