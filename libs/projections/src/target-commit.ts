import { targetEventSchemaVersion, targetStreamId, type TargetEvent } from '@palimpsest/core/target/target.events';
import type { TargetState } from '@palimpsest/core/target/target.state';
import type { AppendBatcher } from '@palimpsest/store/append-batcher';
import type { AppendGuard, AppendSpec, Placement } from '@palimpsest/store/append-spec';
import { appendTogether } from '@palimpsest/store/append-guarded-batch';
import { appendToStream, type AppendResult } from '@palimpsest/store/append-to-stream';
import { type AppendNotification } from '@palimpsest/store/events-channel';
import type { Sql } from '@palimpsest/store/db';
import type { NewEvent } from '@palimpsest/store/stored-event';
import type { UnchangedEnds } from './content/chunk-layout';
import { contentChangeFor } from './content/content-change';
import { projectionAlongside, statementsFirst } from './inline-projections';
import type { ProjectedEvent } from './projected-event';
import { raw, sql } from '@palimpsest/store/sql-fragment';

/**
 * The target aggregate's unit of work: its events appended and every inline read model (target row,
 * chunks, attempts, ledger, snapshots) written by the same statement, under the row lock or as one
 * guarded statement. The application hands over what was decided; statement text, placement and
 * parameter numbering never leave the store and the projections.
 */

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

/** Another stream's append that commits with a target's events (a publication's outcome). */
export type RidingAppend = AppendSpec;

/** What a commit wrote, for the bookkeeping that must wait until it is durable. */
export interface Committed {
  targetId: string;
  streamVersion: number;
  chunks: string[];
  stateAfter: TargetState;
  notification: AppendNotification | null;
  /** The wake-ups of the other streams' appends that committed with these events (riders). */
  riders: AppendNotification[];
}

function toNewEvent(e: TargetEvent, input: CommitInput): NewEvent {
  return { type: e.type, schemaVersion: targetEventSchemaVersion(e.type), data: e.data, metadata: input.metadata, recordedAt: input.recordedAt };
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
  return { event, chunks: change.chunks, first: statementsFirst(projected), alongside: (at: Placement) => projectionAlongside(projected, at).ctes };
}

function committed(input: CommitInput, positions: number[], chunks: string[], riders: AppendNotification[] = []): Committed {
  const last = positions[positions.length - 1];
  const streamVersion = input.streamVersion + positions.length;
  const stream_id = targetStreamId(input.targetId);
  const notification = last === undefined ? null : { stream_id, global_position: last, stream_version: streamVersion };
  return { targetId: input.targetId, streamVersion, chunks, stateAfter: input.stateAfter, notification, riders };
}

function riderNotes(riders: AppendSpec[], results: AppendResult[]): AppendNotification[] {
  return riders.map((spec, i) => ({ stream_id: spec.streamId, global_position: results[i]!.positions.at(-1)!, stream_version: results[i]!.nextExpectedVersion }));
}

/**
 * Append decided events and bring the inline read models up to them, inside the caller's transaction
 * (which holds the target's row lock). Each event is appended and projected by one statement (the
 * projections ride as CTEs of the append); a chunk renumbering runs just before it. `riders`: other
 * streams' appends that commit with these events (a publication's outcome); one event without a
 * renumbering takes them into its own statement, else they follow in one of their own. No NOTIFY: the
 * caller wakes listeners once the transaction has committed.
 */
export async function commitTargetEvents(tx: Sql, input: CommitInput, riders: AppendSpec[] = []): Promise<Committed> {
  const stream = targetStreamId(input.targetId);
  if (input.events.length === 1 && riders.length > 0) {
    const next = projectedEvent(input, 0, input.previousChunks);
    if (next.first.length === 0) {
      const spec: AppendSpec = { streamId: stream, expectedVersion: input.streamVersion, events: [toNewEvent(next.event, input)], alongside: next.alongside };
      const [mine, ...theirs] = await appendTogether(tx, [spec, ...riders]);
      return committed(input, mine!.positions, next.chunks, riderNotes(riders, theirs));
    }
  }
  const positions: number[] = [];
  let chunks = [...input.previousChunks];
  for (const [i, event] of input.events.entries()) {
    const next = projectedEvent(input, i, chunks);
    chunks = next.chunks;
    for (const s of next.first) await tx.query(s.text, s.params);
    const appended = await appendToStream(tx, stream, input.streamVersion + i, [toNewEvent(event, input)], { alongside: next.alongside, notifyChannel: null });
    positions.push(...appended.positions);
  }
  const theirs = riders.length > 0 ? await appendTogether(tx, riders) : [];
  return committed(input, positions, chunks, riderNotes(riders, theirs));
}

/**
 * The guard of an optimistic write: the target row, locked, still at the stream version the events
 * were decided on, and (for a keyed submission) no attempt holding the key yet. Any writer that got in
 * first moved the row's stream_version, which FOR UPDATE re-checks on the newest row. NOWAIT: a row
 * locked by another writer means this decision is about to be stale, so it fails at once (55P03)
 * instead of queueing twice (here, then on the locked path).
 */
function targetGuard(input: CommitInput, key: string | null, unpublished: boolean): AppendGuard {
  const id = sql`${input.targetId}::uuid`;
  const keyFree = key === null ? raw('') : sql` AND NOT EXISTS (SELECT 1 FROM attempts a WHERE a.target_id = ${id} AND a.client_request_id = ${key}::text)`;
  const unbound = unpublished ? sql` AND NOT EXISTS (SELECT 1 FROM workspace_files w WHERE w.target_id = ${id} AND w.publish = 'on_accept')` : raw('');
  return sql`SELECT 1 FROM targets WHERE target_id = ${id} AND stream_version = ${input.streamVersion}::bigint${keyFree}${unbound}
    FOR UPDATE OF targets NOWAIT`;
}

/**
 * One event in ONE statement outside any transaction block — alone, or batched with other targets'
 * (AppendBatcher): lock the row, check it, append, project, commit. Null when the write cannot take
 * this path (several events, or a chunk renumbering that needs statements of its own) or when the row
 * moved (nothing was written): take the locked path then. `unpublished`: the guard also holds only for a
 * target no workspace file publishes on acceptance (an accepted change to one is published first, on the
 * locked path).
 */
export async function commitTargetOptimistically(appends: AppendBatcher, input: CommitInput, key: string | null, unpublished = false): Promise<Committed | null> {
  if (input.events.length !== 1) return null;
  const next = projectedEvent(input, 0, input.previousChunks);
  if (next.first.length) return null;
  const appended = await appends.append({
    streamId: targetStreamId(input.targetId),
    expectedVersion: input.streamVersion,
    events: [toNewEvent(next.event, input)],
    alongside: next.alongside,
    guard: targetGuard(input, key, unpublished),
  });
  return appended ? committed(input, appended.positions, next.chunks) : null;
}
