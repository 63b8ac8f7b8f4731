import pg from 'pg';
import { marker, rawEdit, rawEventData, targetPicker, type RawHead, type ThroughputResult, type Timing } from './scenarios';
import { nowMs, runClosedLoop, summarize, type LatencySummary } from './stats';

/**
 * The raw-SQL baseline batched the way the application's group commit batches (AppendBatcher in
 * libs/store): an edit decided on the text this process last committed goes out as part of ONE
 * statement outside any transaction block — lock the rows still at the versions decided on, insert the
 * event rows, update the target rows, commit — carrying up to MAX_BATCH edits of distinct targets, with
 * up to IN_FLIGHT statements running at once. Natural batching: an edit that finds a free slot goes out
 * at once, alone; edits arriving while the slots are busy queue, and each statement that ends takes the
 * oldest queued ones. Nothing waits for a batch to fill.
 *
 * Like the application (ContentCache.optimisticHead), an edit takes this path only when no other edit of
 * its target is in flight in this process; otherwise, or when the statement found the row moved or
 * locked (SKIP LOCKED: it writes nothing for that edit), it takes the per-transaction path (rawEdit:
 * BEGIN, SELECT … FOR UPDATE, INSERT, UPDATE, COMMIT), which reads the text under the lock.
 */

export const MAX_BATCH = 8;
export const IN_FLIGHT = 4;

/** The same lock + insert + update as rawEdit, for every edit of the batch, in one statement. */
const BATCH_SQL = `
WITH input AS (
  SELECT * FROM unnest($1::int[], $2::bigint[], $3::text[], $4::jsonb[]) AS i(target_id, version, content, data)
),
locked AS MATERIALIZED (
  SELECT t.target_id FROM bench_raw_targets t JOIN input i ON i.target_id = t.target_id AND t.version = i.version
  FOR UPDATE OF t SKIP LOCKED
),
inserted AS (
  INSERT INTO bench_raw_events (stream_id, stream_version, data, recorded_at)
  SELECT 'raw-' || i.target_id, i.version + 1, i.data, now() FROM input i JOIN locked l USING (target_id)
),
updated AS (
  UPDATE bench_raw_targets t SET version = i.version + 1, content = i.content
  FROM input i JOIN locked l USING (target_id)
  WHERE t.target_id = i.target_id
  RETURNING t.target_id
)
SELECT target_id FROM updated`;

interface Pending {
  targetId: number;
  /** The version the edit was decided on. */
  version: number;
  content: string;
  data: string;
  resolve(committed: boolean): void;
  reject(error: unknown): void;
}

/** Statements per size, for the report: how many edits each committed statement carried. */
export type BatchSizes = number[];

export class RawGroupCommit {
  private queue: Pending[] = [];
  private running = 0;
  /** sizes[n] = statements sent with n edits. */
  readonly sizes: BatchSizes = new Array<number>(MAX_BATCH + 1).fill(0);

  constructor(private readonly pool: pg.Pool) {}

  /** True when the edit committed; false when its row had moved or was locked (nothing written for it). */
  submit(targetId: number, version: number, content: string, data: string): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ targetId, version, content, data, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < IN_FLIGHT && this.queue.length > 0) {
      const batch = this.takeBatch();
      this.running++;
      void this.send(batch).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  /** The oldest queued edits of distinct targets, in arrival order, up to MAX_BATCH. */
  private takeBatch(): Pending[] {
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    const targets = new Set<number>();
    for (const pending of this.queue) {
      if (batch.length < MAX_BATCH && !targets.has(pending.targetId)) {
        targets.add(pending.targetId);
        batch.push(pending);
      } else rest.push(pending);
    }
    this.queue = rest;
    return batch;
  }

  private async send(batch: Pending[]): Promise<void> {
    this.sizes[batch.length]!++;
    try {
      const { rows } = await this.pool.query<{ target_id: number }>(BATCH_SQL, [
        batch.map((p) => p.targetId),
        batch.map((p) => p.version),
        batch.map((p) => p.content),
        batch.map((p) => p.data),
      ]);
      const committed = new Set(rows.map((row) => Number(row.target_id)));
      for (const pending of batch) pending.resolve(committed.has(pending.targetId));
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    }
  }
}

/** What this process last committed per target, and the edits of each target in flight here. */
export class RawHeads {
  private readonly heads = new Map<number, RawHead>();
  private readonly writing = new Map<number, number>();

  constructor(targetIds: number[], content: string) {
    for (const id of targetIds) this.heads.set(id, { version: 0, content });
  }

  set(targetId: number, head: RawHead): void {
    const known = this.heads.get(targetId);
    if (!known || known.version < head.version) this.heads.set(targetId, head);
  }

  /** The head to decide an edit on, or null when another edit of the target is in flight here. */
  begin(targetId: number): RawHead | null {
    const n = (this.writing.get(targetId) ?? 0) + 1;
    this.writing.set(targetId, n);
    return n === 1 ? (this.heads.get(targetId) ?? null) : null;
  }

  end(targetId: number): void {
    const n = (this.writing.get(targetId) ?? 1) - 1;
    if (n > 0) this.writing.set(targetId, n);
    else this.writing.delete(targetId);
  }
}

/** Which path an edit took. */
export type RawBatchedPath = 'batched' | 'locked';

/** One edit: in a batched statement when it can, else (or when refused there) per transaction. */
export async function rawBatchedEdit(pool: pg.Pool, group: RawGroupCommit, heads: RawHeads, targetId: number): Promise<RawBatchedPath> {
  const head = heads.begin(targetId);
  try {
    if (head) {
      const v = head.version;
      const content = head.content.replace(marker(v), marker(v + 1));
      if (await group.submit(targetId, v, content, rawEventData(v))) {
        heads.set(targetId, { version: v + 1, content });
        return 'batched';
      }
    }
    heads.set(targetId, await rawEdit(pool, targetId));
    return 'locked';
  } finally {
    heads.end(targetId);
  }
}

export interface RawBatchedResult extends ThroughputResult {
  /** Share of the measured edits that committed in a batched statement (the rest took the per-transaction path). */
  batchedShare: number;
  /** Mean edits per batched statement over the whole run (warm-up included). */
  meanBatch: number;
}

/** Same clients, target assignment and window as rawThroughput; the tables must be fresh from rawSetup. */
export async function rawBatchedThroughput(
  pool: pg.Pool,
  targetIds: number[],
  content: string,
  clients: number,
  t: Timing,
): Promise<RawBatchedResult> {
  const group = new RawGroupCommit(pool);
  const heads = new RawHeads(targetIds, content);
  const pick = targetPicker(targetIds, clients);
  let batched = 0;
  const result = await runClosedLoop(
    clients,
    t.warmupMs,
    t.durationMs,
    async (c) => rawBatchedEdit(pool, group, heads, pick(c)),
    (path, inWindow) => {
      if (inWindow && path === 'batched') batched++;
    },
  );
  const statements = group.sizes.reduce((a, b) => a + b, 0);
  const edits = group.sizes.reduce((a, b, size) => a + b * size, 0);
  return {
    perSecond: result.perSecond,
    acceptedPerSecond: result.perSecond,
    acceptedShare: 1,
    clientCpuMsPerOp: result.clientCpuMsPerOp,
    machineBusy: result.machineBusy,
    batchedShare: result.ops ? batched / result.ops : 0,
    meanBatch: statements ? edits / statements : NaN,
  };
}

/** One client, sequential edits (each batched statement carries one edit); the tables fresh from rawSetup. */
export async function rawBatchedLatency(pool: pg.Pool, targetId: number, content: string, t: Timing): Promise<LatencySummary> {
  const group = new RawGroupCommit(pool);
  const heads = new RawHeads([targetId], content);
  const samples: number[] = [];
  const start = nowMs();
  while (nowMs() - start < t.warmupMs + t.durationMs) {
    const t0 = nowMs();
    const path = await rawBatchedEdit(pool, group, heads, targetId);
    if (path !== 'batched') throw new Error('raw batched latency: an edit of the only client took the locked path');
    if (t0 - start >= t.warmupMs) samples.push(nowMs() - t0);
  }
  return summarize(samples);
}
