import { type AppContext } from '@palimpsest/application/app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatch } from '@palimpsest/application/dispatch/dispatch';
import { WakeNotifier } from '@palimpsest/store/wake-notifier';
import pg from 'pg';
import { ProfilingDb } from './profiling-db';
import { nowMs, runClosedLoop, summarize, type LatencySummary } from './stats';

/**
 * The benchmark's workloads. Every target holds a unique marker `@@v@@` (v = its version); a 1-edit
 * tx/1 submission replaces `@@v@@` by `@@v+1@@` guarded by expected_target_version = v, so an edit
 * is applicable exactly when its guard holds and the text keeps its size.
 */

export interface Timing {
  warmupMs: number;
  durationMs: number;
}

export const marker = (version: number): string => `@@${version}@@`;

/** ASCII text of exactly `bytes` bytes with the version-0 marker in the middle. */
export function documentOf(bytes: number): string {
  const mid = `\n${marker(0)}\n`;
  const line = 'The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs.\n';
  const fill = (n: number) => line.repeat(Math.ceil(n / line.length)).slice(0, n);
  const half = Math.floor((bytes - mid.length) / 2);
  return fill(half) + mid + fill(bytes - mid.length - half);
}

type Answer = Record<string, any>;

export async function createTargets(ctx: AppContext, count: number, content: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = (await dispatch(ctx, 'palimpsest_initialize_target', { filename: `bench-${i}.md`, content })) as Answer;
    if (r.status !== 'ok') throw new Error(`initialize failed: ${JSON.stringify(r)}`);
    ids.push(r.target_file_id);
  }
  return ids;
}

export async function submit(ctx: AppContext, targetId: string, version: number): Promise<Answer> {
  return (await dispatch(ctx, 'palimpsest_submit_edits', {
    target_file_id: targetId,
    intent: 'bench',
    expected_target_version: version,
    edits: [{ match: marker(version), replace: marker(version + 1) }],
  })) as Answer;
}

/** Client c works on targets c, c+clients, …; with fewer targets than clients, targets are shared. */
export function assignTargets<T>(ids: T[], clients: number): T[][] {
  return Array.from({ length: clients }, (_, c) =>
    ids.length < clients ? [ids[c % ids.length]!] : ids.filter((_, i) => i % clients === c),
  );
}

/** Each client's next target, round robin over the ones assignTargets gave it. */
export function targetPicker<T>(ids: T[], clients: number): (client: number) => T {
  const mine = assignTargets(ids, clients);
  const next = new Array<number>(clients).fill(0);
  return (c) => {
    const list = mine[c]!;
    return list[next[c]++ % list.length]!;
  };
}

export interface ThroughputResult {
  /** Committed transactions per second (for dispatch: accepted + rejected submissions, each locked, appended, projected). */
  perSecond: number;
  acceptedPerSecond: number;
  acceptedShare: number;
  clientCpuMsPerOp: number;
  machineBusy: number;
}

/**
 * `clients` loops over dispatch(). Client c works on targets c, c+clients, … (all clients share the
 * one target when there is one). Versions are tracked in process from the answers: a loser of the
 * race is rejected with target_version_mismatch and retries at the current_version its answer names.
 */
export async function appThroughput(ctx: AppContext, targetIds: string[], clients: number, t: Timing): Promise<ThroughputResult> {
  const known = new Map(targetIds.map((id) => [id, 0]));
  const pick = targetPicker(targetIds, clients);
  let accepted = 0;
  const result = await runClosedLoop(
    clients,
    t.warmupMs,
    t.durationMs,
    async (c) => {
      const id = pick(c);
      const v = known.get(id)!;
      const r = await submit(ctx, id, v);
      if (r.status === 'accepted') {
        known.set(id, Math.max(known.get(id)!, r.version));
        return true;
      }
      if (r.status === 'rejected' && r.failure_reason === 'target_version_mismatch') {
        known.set(id, Math.max(known.get(id)!, r.current_version));
        return false;
      }
      throw new Error(`unexpected answer: ${JSON.stringify(r).slice(0, 400)}`);
    },
    (wasAccepted, inWindow) => {
      if (inWindow && wasAccepted) accepted++;
    },
  );
  return {
    perSecond: result.perSecond,
    acceptedPerSecond: accepted / result.seconds,
    acceptedShare: result.ops ? accepted / result.ops : 0,
    clientCpuMsPerOp: result.clientCpuMsPerOp,
    machineBusy: result.machineBusy,
  };
}

/** The raw-SQL shape of one guarded edit: lock the row, insert an event-like row, update the row. */
export const RAW_SCHEMA = `
DROP TABLE IF EXISTS bench_raw_events;
DROP TABLE IF EXISTS bench_raw_targets;
CREATE TABLE bench_raw_targets (target_id int PRIMARY KEY, version bigint NOT NULL, content text NOT NULL);
ALTER TABLE bench_raw_targets ALTER COLUMN content SET STORAGE EXTERNAL;
CREATE TABLE bench_raw_events (
  global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  stream_id text NOT NULL,
  stream_version bigint NOT NULL,
  data jsonb NOT NULL,
  recorded_at timestamptz NOT NULL,
  UNIQUE (stream_id, stream_version)
);`;

export async function rawSetup(pool: pg.Pool, targets: number, content: string): Promise<number[]> {
  await pool.query(RAW_SCHEMA);
  const ids = Array.from({ length: targets }, (_, i) => i + 1);
  await pool.query(
    `INSERT INTO bench_raw_targets (target_id, version, content) SELECT g, 0, $1 FROM generate_series(1, $2::int) g`,
    [content, targets],
  );
  return ids;
}

/** The event-like row one raw edit inserts (JSON text for its jsonb column). */
export function rawEventData(version: number): string {
  return JSON.stringify({
    type: 'EditAccepted',
    before_version: version,
    after_version: version + 1,
    edits: [{ match: marker(version), replace: marker(version + 1) }],
    recorded: new Date().toISOString(),
  });
}

/** A raw target as committed: its version and text. */
export interface RawHead {
  version: number;
  content: string;
}

/**
 * One raw edit. `notify` adds the pg_notify the application's append sends, to show what the
 * commit-time notification lock costs on its own. Returns the row it committed.
 */
export async function rawEdit(pool: pg.Pool, targetId: number, notify = false): Promise<RawHead> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
    const { rows } = await client.query('SELECT version, content FROM bench_raw_targets WHERE target_id = $1 FOR UPDATE', [targetId]);
    const v = Number(rows[0].version);
    const content = (rows[0].content as string).replace(marker(v), marker(v + 1));
    const data = rawEventData(v);
    await client.query(
      'INSERT INTO bench_raw_events (stream_id, stream_version, data, recorded_at) VALUES ($1, $2, $3, now())',
      [`raw-${targetId}`, v + 1, data],
    );
    await client.query('UPDATE bench_raw_targets SET version = $2, content = $3 WHERE target_id = $1', [targetId, v + 1, content]);
    if (notify) await client.query(`SELECT pg_notify('bench_raw_events', $1)`, [`raw-${targetId}:${v + 1}`]);
    await client.query('COMMIT');
    return { version: v + 1, content };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export async function rawThroughput(
  pool: pg.Pool,
  targetIds: number[],
  clients: number,
  t: Timing,
  notify = false,
): Promise<ThroughputResult> {
  const pick = targetPicker(targetIds, clients);
  const result = await runClosedLoop(clients, t.warmupMs, t.durationMs, async (c) => {
    await rawEdit(pool, pick(c), notify);
  });
  return {
    perSecond: result.perSecond,
    acceptedPerSecond: result.perSecond,
    acceptedShare: 1,
    clientCpuMsPerOp: result.clientCpuMsPerOp,
    machineBusy: result.machineBusy,
  };
}

/** Sequential submits by one client; returns the latency of each in the measured window. */
export async function appLatency(ctx: AppContext, targetId: string, t: Timing): Promise<LatencySummary> {
  let v = 0;
  const samples: number[] = [];
  const start = nowMs();
  while (nowMs() - start < t.warmupMs + t.durationMs) {
    const t0 = nowMs();
    const r = await submit(ctx, targetId, v);
    const ms = nowMs() - t0;
    if (r.status !== 'accepted') throw new Error(`unexpected answer: ${JSON.stringify(r).slice(0, 400)}`);
    v = r.version;
    if (t0 - start >= t.warmupMs) samples.push(ms);
  }
  return summarize(samples);
}

export async function rawLatency(pool: pg.Pool, targetId: number, t: Timing): Promise<LatencySummary> {
  const samples: number[] = [];
  const start = nowMs();
  while (nowMs() - start < t.warmupMs + t.durationMs) {
    const t0 = nowMs();
    await rawEdit(pool, targetId);
    if (t0 - start >= t.warmupMs) samples.push(nowMs() - t0);
  }
  return summarize(samples);
}

export interface PhaseRow {
  phase: string;
  perSubmit: number;
  msPerSubmit: number;
  kbSentPerSubmit: number;
  kbReceivedPerSubmit: number;
}

/**
 * One client, `iterations` submits through a Db that times every round trip: where a submit's time goes.
 * Rows: each statement kind, BEGIN + COMMIT of transactions, and the in-process rest (admission,
 * decide, hash, JSON, result parsing, response). Post-commit wake-ups bypass the profiler: they are
 * not awaited by the submit.
 */
export async function profileSubmits(db: ProfilingDb, targetId: string, iterations: number): Promise<{ totalMs: number; rows: PhaseRow[] }> {
  const ctx = appContext(db, { wakes: new WakeNotifier(db.unprofiled) });
  let v = 0;
  for (let i = 0; i < 20; i++) v = (await submit(ctx, targetId, v)).version; // warm-up, not recorded
  db.reset();
  let total = 0;
  for (let i = 0; i < iterations; i++) {
    const t0 = nowMs();
    const r = await submit(ctx, targetId, v);
    total += nowMs() - t0;
    if (r.status !== 'accepted') throw new Error(`unexpected answer: ${JSON.stringify(r).slice(0, 400)}`);
    v = r.version;
  }
  const rows: PhaseRow[] = [];
  let dbMs = 0;
  for (const [phase, p] of db.phases) {
    dbMs += p.ms;
    rows.push({
      phase,
      perSubmit: p.count / iterations,
      msPerSubmit: p.ms / iterations,
      kbSentPerSubmit: p.bytesSent / 1024 / iterations,
      kbReceivedPerSubmit: p.bytesReceived / 1024 / iterations,
    });
  }
  rows.push({ phase: 'in process (admission, decide, hash, JSON, parse, response)', perSubmit: 0, msPerSubmit: (total - dbMs) / iterations, kbSentPerSubmit: 0, kbReceivedPerSubmit: 0 });
  return { totalMs: total / iterations, rows };
}
