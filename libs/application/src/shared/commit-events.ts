import type { Decided } from './target-refusals';
import { TARGET_EVENT_SCHEMA_VERSION, targetStreamId, type TargetEvent } from '@palimpsest/core/target/target.events';
import type { TargetState } from '@palimpsest/core/target/target.state';
import type { UnchangedEnds } from '@palimpsest/projections/content/chunk-layout';
import { contentChangeFor } from '@palimpsest/projections/content/content-change';
import { projectionAlongside } from '@palimpsest/projections/inline-projections';
import type { ProjectedEvent } from '@palimpsest/projections/projected-event';
import { SqlParams } from '@palimpsest/projections/sql-params';
import type { AppendBatcher } from '@palimpsest/store/append-batcher';
import {
  alongsideParamOffset,
  appendToStream,
  insertedCte,
  ONLY_APPEND,
  type AppendGuard,
  type AppendNotification,
  type AppendSlot,
} from '@palimpsest/store/append-to-stream';
import type { Sql } from '@palimpsest/store/db';
import type { NewEvent } from '@palimpsest/store/stored-event';
import type { AppContext } from '../app-context';
import { type TargetRow } from '@palimpsest/projections/content/target-row.queries';

export interface CommitInput {
  targetId: string;
  streamVersion: number;
  /** The stored chunks before these events ([] for a new target). */
  previousChunks: readonly string[];
  events: TargetEvent[];
  /** The state after the last event; no command decides two text-changing events. */
  stateAfter: TargetState;
  recordedAt: string;
  metadata: Record<string, unknown>;
  /** Which ends of the text an acceptance left untouched, so storage compares only the rest. */
  textChange?: UnchangedEnds | null;
}

/** The commit of what the decider evaluated on a target row (locked, or this process's head of it). */
export function commitOf(row: TargetRow, outcome: Decided, recordedAt: string, metadata: Record<string, unknown>): CommitInput {
  return {
    targetId: row.target_id,
    streamVersion: row.stream_version,
    previousChunks: row.chunks,
    events: outcome.events,
    stateAfter: outcome.state,
    recordedAt,
    metadata,
    textChange: outcome.hints.textChange,
  };
}

/** What a commit wrote, for the bookkeeping that must wait until it is durable (see afterCommit). */
export interface Committed {
  targetId: string;
  streamVersion: number;
  chunks: string[];
  stateAfter: TargetState;
  notification: AppendNotification | null;
}

function toNewEvent(e: TargetEvent, input: CommitInput): NewEvent {
  return { type: e.type, schemaVersion: TARGET_EVENT_SCHEMA_VERSION, data: e.data, metadata: input.metadata, recordedAt: input.recordedAt };
}

function projectedEvent(input: CommitInput, i: number, chunks: readonly string[]) {
  const event = input.events[i]!;
  const change = contentChangeFor(event, chunks, input.stateAfter, input.textChange ?? null);
  const projected: ProjectedEvent = {
    event,
    position: null,
    streamVersion: input.streamVersion + i + 1,
    recordedAt: input.recordedAt,
    stateAfter: input.stateAfter,
    contentRewrite: change.rewrite,
  };
  const alongsideAt = (slot: AppendSlot) => projectionAlongside(projected, alongsideParamOffset(slot), insertedCte(slot));
  return { event, chunks: change.chunks, alongside: alongsideAt(ONLY_APPEND), alongsideAt };
}

function committed(input: CommitInput, positions: number[], chunks: string[]): Committed {
  const last = positions[positions.length - 1];
  const streamVersion = input.streamVersion + positions.length;
  const stream_id = targetStreamId(input.targetId);
  const notification = last === undefined ? null : { stream_id, global_position: last, stream_version: streamVersion };
  return { targetId: input.targetId, streamVersion, chunks, stateAfter: input.stateAfter, notification };
}

/**
 * Append decided events and bring the inline read models up to them, inside the caller's transaction
 * (which holds the target's row lock). Each event is appended and projected by one statement (the
 * projections ride as CTEs of the append). Neither the cache nor NOTIFY is touched before the commit
 * (see transactionCommitting).
 */
async function commitEvents(tx: Sql, input: CommitInput): Promise<Committed> {
  const stream = targetStreamId(input.targetId);
  const positions: number[] = [];
  let chunks = [...input.previousChunks];
  for (const [i, event] of input.events.entries()) {
    const next = projectedEvent(input, i, chunks);
    chunks = next.chunks;
    for (const s of next.alongside.before) await tx.query(s.text, s.params);
    const appended = await appendToStream(tx, stream, input.streamVersion + i, [toNewEvent(event, input)], {
      alongside: next.alongside,
      notifyChannel: null,
    });
    positions.push(...appended.positions);
  }
  return committed(input, positions, chunks);
}

/**
 * The guard of an optimistic write: the target row, locked, still at the stream version the events
 * were decided on, and (for a keyed submission) no attempt holding the key yet. Any writer that got in
 * first moved the row's stream_version, which FOR UPDATE re-checks on the newest row. NOWAIT: a row
 * locked by another writer means this decision is about to be stale, so it fails at once (55P03)
 * instead of queueing twice (here, then on the locked path).
 */
function targetGuard(input: CommitInput, key: string | null, offset: number): AppendGuard {
  const p = new SqlParams(offset);
  const id = p.add(input.targetId);
  const keyFree = key === null
    ? ''
    : ` AND NOT EXISTS (SELECT 1 FROM attempts a WHERE a.target_id = ${id}::uuid AND a.client_request_id = ${p.add(key)}::text)`;
  const sql = `SELECT 1 FROM targets WHERE target_id = ${id}::uuid AND stream_version = ${p.add(input.streamVersion)}::bigint${keyFree}
    FOR UPDATE OF targets NOWAIT`;
  return { sql, values: p.values };
}

/**
 * One event in ONE statement outside any transaction block — alone, or batched with other targets'
 * (AppendBatcher): lock the row, check it, append, project, commit. Null when the write cannot take
 * this path (several events, or a chunk renumbering that needs statements of its own) or when the row
 * moved (nothing was written): take the locked path then.
 */
export async function commitOptimistically(appends: AppendBatcher, input: CommitInput, key: string | null): Promise<Committed | null> {
  if (input.events.length !== 1) return null;
  const next = projectedEvent(input, 0, input.previousChunks);
  if (next.alongside.before.length) return null;
  const events = [toNewEvent(next.event, input)];
  const streamId = targetStreamId(input.targetId);
  const appended = await appends.append((slot) => {
    const alongside = slot === ONLY_APPEND ? next.alongside : next.alongsideAt(slot);
    const guard = targetGuard(input, key, alongsideParamOffset(slot) + alongside.values.length);
    return { streamId, expectedVersion: input.streamVersion, events, alongside, guard };
  });
  return appended ? committed(input, appended.positions, next.chunks) : null;
}

/** Commits one target's decided events inside the transaction it was handed by transactionCommitting. */
export type CommitTargetEvents = (input: CommitInput) => Promise<Committed>;

/**
 * A transaction that writes target events through `commit`. Once it has committed, and only then,
 * each write's head reaches the cache and its wake-up the listeners (afterCommit); rolled back, none do.
 */
export async function transactionCommitting<T>(ctx: AppContext, fn: (tx: Sql, commit: CommitTargetEvents) => Promise<T>): Promise<T> {
  const written: Committed[] = [];
  const result = await ctx.db.transaction((tx) =>
    fn(tx, async (input) => {
      const done = await commitEvents(tx, input);
      written.push(done);
      return done;
    }),
  );
  for (const done of written) afterCommit(ctx, done);
  return result;
}

/** Once the commit is durable: the cache learns the new head, and listeners get their wake-up. */
export function afterCommit(ctx: AppContext, done: Committed): void {
  if (!done.notification) return;
  const { exists, content, ...row } = done.stateAfter as Extract<TargetState, { exists: true }>;
  if (exists) {
    const head = { ...row, stream_version: done.streamVersion, last_position: done.notification.global_position };
    ctx.contents.setCommitted(head, done.chunks, content);
  }
  ctx.wakes.wake(done.notification);
}
