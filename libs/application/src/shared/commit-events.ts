import { TARGET_EVENT_SCHEMA_VERSION, targetStreamId, type TargetEvent } from '@palimpsest/core/target/target.events';
import type { TargetState } from '@palimpsest/core/target/target.state';
import type { UnchangedEnds } from '@palimpsest/projections/content/chunk-layout';
import { contentChangeFor } from '@palimpsest/projections/content/content-change';
import { projectInline } from '@palimpsest/projections/inline-projections';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Sql } from '@palimpsest/store/db';
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

/** Append decided events and bring the inline read models up to them, inside the caller's transaction. */
export async function commitEvents(tx: Sql, cache: ContentCache, input: CommitInput): Promise<number[]> {
  const { events, streamVersion, stateAfter } = input;
  if (events.length === 0) return [];
  const { positions } = await appendToStream(
    tx,
    targetStreamId(input.targetId),
    streamVersion,
    events.map((e) => ({
      type: e.type,
      schemaVersion: TARGET_EVENT_SCHEMA_VERSION,
      data: e.data,
      metadata: input.metadata,
      recordedAt: input.recordedAt,
    })),
  );
  let chunks = [...input.previousChunks];
  const projected = events.map((event, i) => {
    const change = contentChangeFor(event, chunks, stateAfter, input.textChange ?? null);
    chunks = change.chunks;
    return {
      event,
      position: positions[i],
      streamVersion: streamVersion + i + 1,
      recordedAt: input.recordedAt,
      stateAfter,
      contentRewrite: change.rewrite,
    };
  });
  await projectInline(tx, projected);
  if (stateAfter.exists) {
    cache.set(input.targetId, {
      version: stateAfter.version,
      current_hash: stateAfter.current_hash,
      chunks,
      content: stateAfter.content,
    });
  }
  return positions;
}
