import type { Db } from '@palimpsest/store/db';
import type { AsyncProjection } from '../../async/async-projection.port';
import { catchUp } from '../../async/catch-up';
import { resetCheckpoint } from '../../async/projection-checkpoints';
import { ASYNC_PROJECTIONS } from '../../async/registry';
import { InlineFollower } from './inline-follower';
import { holdRebuildLock } from './rebuild-lock';
import { createShadow, dropShadow, shadowSchemaOf, useShadow } from './shadow-schema';
import { switchOver, type Switched } from './switch-over';

/**
 * Rebuilds read models without stopping the service. Each is built beside the live one, in a shadow
 * schema, from position 0 in commit order (log-range.ts), in short transactions while writers and readers go on with
 * the live tables; once it has caught up, one transaction locks the live tables (for as long as the
 * last tail, the digests and a rename take), compares per-target digests, and swaps the shadow in.
 *
 * `inline` names the models every submit writes in its own transaction (targets, attempts, ledger,
 * candidates, journals…: one unit, as the stop-the-world rebuild has it); every other name is an
 * asynchronous projection of the registry. A digest mismatch means the live model was wrong: it is
 * reported (equal false, the keys that differ) and the rebuilt model replaces it all the same, as the
 * stop-the-world rebuild does.
 */

export const INLINE_MODELS = 'inline';

export interface OnlineRebuildProgress {
  name: string;
  phase: 'building' | 'switching';
  /** Events applied to the shadow so far, and the events in the log (it grows while writers go on). */
  done: number;
  total: number;
}

export interface OnlineRebuildReport extends Switched {
  name: string;
  events: number;
  duration_ms: number;
  /** Times the switch gave up waiting for the live tables' locks (writers held them) and tried again. */
  lock_retries: number;
}

export interface OnlineRebuildOptions {
  /** One model; default every model (inline first, then each asynchronous projection). */
  name?: string;
  /** The asynchronous projections to know (default: the registry's). */
  projections?: readonly AsyncProjection[];
  /** Events per build transaction (default 500; 100 on PGlite, whose one connection the batch holds). */
  batchSize?: number;
  lockTimeoutMs?: number;
  /** The most events left for the switch to apply under the lock when writers keep the lag from shrinking. */
  maxTailEvents?: number;
  onProgress?: (p: OnlineRebuildProgress) => void;
}

export class UnknownProjectionError extends Error {
  constructor(readonly projection: string, readonly known: readonly string[]) {
    super(`no read model named ${JSON.stringify(projection)}; known: ${known.join(', ')}`);
  }
}

export class RebuildBusyError extends Error {
  constructor(readonly projection: string) {
    super(`an online rebuild of ${projection} is already running`);
  }
}

/** The names `rebuild --online` takes. */
function onlineRebuildNames(projections: readonly AsyncProjection[] = ASYNC_PROJECTIONS): string[] {
  return [INLINE_MODELS, ...projections.map((p) => p.name)];
}

export async function rebuildOnline(db: Db, opts: OnlineRebuildOptions = {}): Promise<{ equal: boolean; rebuilt: OnlineRebuildReport[] }> {
  const projections = opts.projections ?? ASYNC_PROJECTIONS;
  const names = onlineRebuildNames(projections);
  if (opts.name !== undefined && !names.includes(opts.name)) throw new UnknownProjectionError(opts.name, names);
  const rebuilt: OnlineRebuildReport[] = [];
  for (const name of opts.name === undefined ? names : [opts.name]) {
    const async = projections.find((p) => p.name === name);
    rebuilt.push(await rebuildOne(db, async ?? new InlineFollower(), async ? 'async' : 'inline', opts));
  }
  return { equal: rebuilt.every((r) => r.equal), rebuilt };
}

async function rebuildOne(db: Db, projection: AsyncProjection, kind: 'inline' | 'async', opts: OnlineRebuildOptions): Promise<OnlineRebuildReport> {
  const started = Date.now();
  const release = await holdRebuildLock(db, projection.name);
  if (!release) throw new RebuildBusyError(projection.name);
  const schema = shadowSchemaOf(projection.name);
  const shadowCheckpoint = `rebuild:${projection.name}`;
  try {
    await db.transaction((tx) => createShadow(tx, schema, projection.tables));
    await resetCheckpoint(db, shadowCheckpoint);
    const shadowed: AsyncProjection = {
      name: projection.name,
      version: projection.version,
      tables: projection.tables,
      apply: async (tx, events) => {
        await useShadow(tx, schema);
        await projection.apply(tx, events);
      },
    };
    const events = await build(db, shadowed, shadowCheckpoint, opts);
    const plan = { kind, projection, schema, shadowCheckpoint, lockTimeoutMs: opts.lockTimeoutMs ?? 200 };
    opts.onProgress?.({ name: projection.name, phase: 'switching', done: events, total: events });
    const { switched, retries } = await switchWithRetries(db, plan, projection);
    return { name: projection.name, ...switched, events: events + switched.tail, duration_ms: Date.now() - started, lock_retries: retries };
  } catch (error) {
    await db.transaction((tx) => dropShadow(tx, schema)).catch(() => undefined);
    await db.query(`DELETE FROM projection_checkpoints WHERE projection = $1`, [shadowCheckpoint]).catch(() => undefined);
    throw error;
  } finally {
    await release();
  }
}

/**
 * Catches the shadow up batch by batch through catchUp (one short transaction each: the batch and the
 * shadow's checkpoint, compare-and-set), until a batch comes back short or the lag stops shrinking.
 */
async function build(db: Db, shadowed: AsyncProjection, checkpointName: string, opts: OnlineRebuildOptions): Promise<number> {
  // PGlite has one connection: a batch holds every request back while it runs, so batches are smaller there.
  const batchSize = opts.batchSize ?? (db.kind === 'pglite' ? 100 : 500);
  const log = await logSize(db, null);
  let done = 0;
  let bestLag = Number.POSITIVE_INFINITY;
  let stale = 0;
  for (;;) {
    const batch = await catchUp(db, shadowed, { batchSize, maxBatches: 1, checkpointName });
    if (!batch.owned) throw new RebuildBusyError(shadowed.name);
    done += batch.applied;
    const total = Math.max(done, log.count + (await logSize(db, log.max)).count);
    opts.onProgress?.({ name: shadowed.name, phase: 'building', done, total });
    if (batch.applied < batchSize) return done;
    // Writers adding events as fast as the shadow takes them: switch once the lag stops shrinking and is
    // small enough to apply under the lock; a larger lag keeps building (the progress shows it).
    const lag = total - done;
    stale = lag < bestLag ? 0 : stale + 1;
    bestLag = Math.min(bestLag, lag);
    if (stale >= 3 && lag <= (opts.maxTailEvents ?? 2000)) return done;
    // In process (PGlite) nothing here waits on I/O: give the event loop to the requests between batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Events in the log (after position `after`, when given) and the last position. */
async function logSize(db: Db, after: number | null): Promise<{ count: number; max: number }> {
  const { rows } = await db.query<{ count: number; max: number | null }>(
    `SELECT count(*)::bigint AS count, max(global_position) AS max FROM events WHERE $1::bigint IS NULL OR global_position > $1::bigint`,
    [after],
  );
  return { count: Number(rows[0]!.count), max: Number(rows[0]!.max ?? after ?? 0) };
}

const LOCK_NOT_AVAILABLE = '55P03';
const MAX_LOCK_RETRIES = 100;

async function switchWithRetries(db: Db, plan: Parameters<typeof switchOver>[1], projection: AsyncProjection) {
  for (let retries = 0; ; retries++) {
    try {
      return { switched: await switchOver(db, plan), retries };
    } catch (error) {
      if ((error as { code?: string }).code !== LOCK_NOT_AVAILABLE || retries >= MAX_LOCK_RETRIES) throw error;
      if (projection instanceof InlineFollower) projection.forget();
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40));
    }
  }
}
