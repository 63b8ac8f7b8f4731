import { TARGET_EVENT_SCHEMA_VERSION, targetStreamId, type TargetEvent } from '@palimpsest/core/target/target.events';
import type { TargetState } from '@palimpsest/core/target/target.state';
import type { UnchangedEnds } from '@palimpsest/projections/content/chunk-layout';
import { contentChangeFor } from '@palimpsest/projections/content/content-change';
import { projectionAlongside } from '@palimpsest/projections/inline-projections';
import type { ProjectedEvent } from '@palimpsest/projections/projected-event';
import { APPEND_PARAM_COUNT, appendToStream } from '@palimpsest/store/append-to-stream';
import type { Sql } from '@palimpsest/store/db';
import type { NewEvent } from '@palimpsest/store/stored-event';
import type { ContentCache } from './content-cache';

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

function toNewEvent(e: TargetEvent, input: CommitInput): NewEvent {
  return { type: e.type, schemaVersion: TARGET_EVENT_SCHEMA_VERSION, data: e.data, metadata: input.metadata, recordedAt: input.recordedAt };
}

/**
 * Append decided events and bring the inline read models up to them, inside the caller's transaction.
 * Each event is appended and projected by one statement (the projections ride as CTEs of the append),
 * so every round trip saved is taken while the target's row lock is held.
 */
export async function commitEvents(tx: Sql, cache: ContentCache, input: CommitInput): Promise<number[]> {
  const { events, stateAfter } = input;
  const stream = targetStreamId(input.targetId);
  const positions: number[] = [];
  let chunks = [...input.previousChunks];
  for (const [i, event] of events.entries()) {
    const streamVersion = input.streamVersion + i;
    const change = contentChangeFor(event, chunks, stateAfter, input.textChange ?? null);
    chunks = change.chunks;
    const projected: ProjectedEvent = {
      event,
      position: null,
      streamVersion: streamVersion + 1,
      recordedAt: input.recordedAt,
      stateAfter,
      contentRewrite: change.rewrite,
    };
    const alongside = projectionAlongside(projected, APPEND_PARAM_COUNT);
    for (const s of alongside.before) await tx.query(s.text, s.params);
    const appended = await appendToStream(tx, stream, streamVersion, [toNewEvent(event, input)], { alongside });
    positions.push(...appended.positions);
  }
  if (events.length && stateAfter.exists) {
    cache.set(input.targetId, { version: stateAfter.version, current_hash: stateAfter.current_hash, chunks, content: stateAfter.content });
  }
  return positions;
}
