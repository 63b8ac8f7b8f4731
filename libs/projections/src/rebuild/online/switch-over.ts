import type { Db, DbKind, Sql, Tx } from '@palimpsest/store/db';
import type { ReadAllCheckpoint } from '@palimpsest/store/read-all';
import { checkpointOf } from '@palimpsest/store/read-all';
import type { AsyncProjection } from '../../async/async-projection.port';
import { loadCheckpoint } from '../../async/projection-checkpoints';
import { compareDigests, readModelDigests, type DigestComparison } from '../read-model-digest';
import { isBefore, readLog } from './log-range';
import { lockLive, swapIntoPublic, useLive, useShadow } from './shadow-schema';
import { tableDigests } from './table-digest';

/** What the switch did: the comparison of the live model with the rebuilt one, and its cost. */
export interface Switched extends DigestComparison {
  /** Events applied to the rebuilt model under the lock (the last tail). */
  tail: number;
  /** How long readers and writers of the model's tables waited on the switch. */
  locked_ms: number;
}

export interface SwitchPlan {
  kind: 'inline' | 'async';
  projection: AsyncProjection;
  schema: string;
  shadowCheckpoint: string;
  /** Give up waiting for the live tables' locks after this long and try again (never fail a writer). */
  lockTimeoutMs: number;
}

const PAGE = 1000;

/**
 * One transaction: lock the live tables, bring the shadow (and, for an asynchronous model, the live
 * tables) to the same place in the log, compare digests, move the shadow into public, and move the
 * checkpoints. The lock waits at most lockTimeoutMs (below the server's deadlock_timeout, so a writer
 * caught in a lock cycle with the switch is never the one PostgreSQL aborts); the caller retries.
 */
export async function switchOver(db: Db, plan: SwitchPlan): Promise<Switched> {
  return db.transaction(async (tx) => {
    await tx.query(`SET LOCAL lock_timeout = '${Math.max(1, Math.floor(plan.lockTimeoutMs))}ms'`);
    await lockLive(tx, plan.projection.tables);
    const locked = Date.now();
    const result = plan.kind === 'inline' ? await switchInline(tx, db.kind, plan) : await switchAsync(tx, db.kind, plan);
    await swapIntoPublic(tx, plan.schema, plan.projection.tables);
    await tx.query(`DELETE FROM projection_checkpoints WHERE projection = $1`, [plan.shadowCheckpoint]);
    return { ...result, locked_ms: Date.now() - locked };
  });
}

/**
 * Inline models: under the lock no transaction that writes them is running, so every event they reflect
 * has committed and is visible to this statement; the shadow takes all of them, then both are compared.
 */
async function switchInline(tx: Tx, kind: DbKind, plan: SwitchPlan): Promise<Omit<Switched, 'locked_ms'>> {
  const from = await loadCheckpoint(tx, plan.shadowCheckpoint);
  await useShadow(tx, plan.schema);
  const tail = await applyRange(tx, kind, plan.projection, from, null);
  const rebuilt = await readModelDigests(tx);
  await useLive(tx);
  const live = await readModelDigests(tx);
  await tx.query(
    `INSERT INTO projection_checkpoints (projection, last_position, rebuilt_at, updated_at)
     VALUES ('inline', COALESCE((SELECT max(global_position) FROM events), 0), now(), now())
     ON CONFLICT (projection) DO UPDATE SET last_position = EXCLUDED.last_position, rebuilt_at = now(), updated_at = now()`,
  );
  return { ...compareDigests(live, rebuilt), tail: tail.applied };
}

/**
 * Asynchronous models: the live tables stand at the projection's checkpoint, the shadow at its own.
 * Under the lock the projector cannot commit a batch, so whichever is behind is brought to the other's
 * checkpoint (a range readAll has already returned, so nothing in it can still appear), the two are
 * compared, and the live checkpoint becomes the shadow's. A projector batch waiting on the lock then
 * fails its compare-and-set and is rolled back: no event is applied twice.
 */
async function switchAsync(tx: Tx, kind: DbKind, plan: SwitchPlan): Promise<Omit<Switched, 'locked_ms'>> {
  const { projection } = plan;
  const live = await loadCheckpoint(tx, projection.name);
  const shadow = await loadCheckpoint(tx, plan.shadowCheckpoint);
  const liveBehind = await isBefore(tx, kind, live, shadow);
  const [behind, ahead] = liveBehind ? [live, shadow] : [shadow, live];
  if (liveBehind) await useLive(tx);
  else await useShadow(tx, plan.schema);
  const tail = await applyRange(tx, kind, projection, behind, ahead);
  await useShadow(tx, plan.schema);
  const rebuilt = await tableDigests(tx, projection);
  await useLive(tx);
  const before = await tableDigests(tx, projection);
  await tx.query(
    `UPDATE projection_checkpoints SET last_xid = $2::text::xid8, last_position = $3::bigint,
            events_handled = $4::bigint, rebuilt_at = now(), updated_at = now()
      WHERE projection = $1`,
    [projection.name, ahead.xid, ahead.position, shadow.eventsHandled + (liveBehind ? 0 : tail.applied)],
  );
  return { ...compareDigests(before, rebuilt), tail: liveBehind ? 0 : tail.applied };
}

/** Every event after `after` (up to `upTo`), visible to this transaction, applied page by page. */
async function applyRange(
  tx: Sql, kind: DbKind, projection: AsyncProjection, after: ReadAllCheckpoint, upTo: ReadAllCheckpoint | null,
): Promise<{ applied: number; at: ReadAllCheckpoint }> {
  let at = after;
  let applied = 0;
  for (;;) {
    const events = await readLog(tx, { kind, after: at, upTo, limit: PAGE, gapSafe: false });
    if (events.length === 0) return { applied, at };
    await projection.apply(tx, events);
    applied += events.length;
    at = checkpointOf(events[events.length - 1]!);
  }
}
