import { targetEventSchemaVersion, targetStreamId, type TargetEvent } from '@palimpsest/core/target/target.events';
import type { TargetState } from '@palimpsest/core/target/target.state';
import type { AppendGuard } from '@palimpsest/store/append-spec';
import type { StreamAppend } from '@palimpsest/store/event-store';
import { raw, sql } from '@palimpsest/store/sql-fragment';
import type { UnchangedEnds } from './content/chunk-layout';
import { contentChangeFor } from './content/content-change';
import type { TargetAfter } from './inline-projections';

/**
 * What a target's decided events become for the store's append: each event with what the target
 * projection needs after it (the state, the chunk rewrite), planned here once. The statement text, its
 * placement and the projections' writes are the store's and the registered projection's.
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

export interface TargetAppend {
  append: StreamAppend;
  /** The stored chunks after the events. */
  chunks: string[];
  /** Whether an event renumbers the chunks: its writes then take statements of their own, never one guarded statement. */
  renumbers: boolean;
}

export function targetAppend(input: CommitInput): TargetAppend {
  let chunks = [...input.previousChunks];
  let renumbers = false;
  const events = input.events.map((event) => {
    const change = contentChangeFor(event, chunks, input.stateAfter, input.textChange ?? null);
    chunks = change.chunks;
    renumbers ||= change.rewrite !== null && change.rewrite.insert.length !== change.rewrite.deleteCount;
    const after: TargetAfter = { state: input.stateAfter, rewrite: change.rewrite };
    return { type: event.type, schemaVersion: targetEventSchemaVersion(event), data: event.data, metadata: input.metadata, recordedAt: input.recordedAt, after };
  });
  return { append: { streamId: targetStreamId(input.targetId), expectedVersion: input.streamVersion, events }, chunks, renumbers };
}

/**
 * The guard of an optimistic write: the target row, locked, still at the stream version the events
 * were decided on, and (for a keyed submission) no attempt holding the key yet. Any writer that got in
 * first moved the row's stream_version, which FOR UPDATE re-checks on the newest row. NOWAIT: a row
 * locked by another writer means this decision is about to be stale, so it fails at once (55P03)
 * instead of queueing twice (here, then on the locked path). `unpublished`: it also holds only for a
 * target no workspace file publishes on acceptance (an accepted change to one is published first, locked).
 */
export function targetGuard(input: CommitInput, key: string | null, unpublished: boolean): AppendGuard {
  const id = sql`${input.targetId}::uuid`;
  const keyFree = key === null ? raw('') : sql` AND NOT EXISTS (SELECT 1 FROM attempts a WHERE a.target_id = ${id} AND a.client_request_id = ${key}::text)`;
  const unbound = unpublished ? sql` AND NOT EXISTS (SELECT 1 FROM workspace_files w WHERE w.target_id = ${id} AND w.publish = 'on_accept')` : raw('');
  return sql`SELECT 1 FROM targets WHERE target_id = ${id} AND stream_version = ${input.streamVersion}::bigint${keyFree}${unbound}
    FOR UPDATE OF targets NOWAIT`;
}
