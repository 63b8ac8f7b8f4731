import { TARGET_EVENT_SCHEMA_VERSION, targetStreamId, type TargetEvent } from '@palimpsest/core/target/target.events';
import type { TargetState } from '@palimpsest/core/target/target.state';
import { projectInline } from '@palimpsest/projections/inline-projections';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Sql } from '@palimpsest/store/db';

/**
 * Append decided events and bring the inline read models up to them, inside the caller's transaction.
 * `stateAfter` is the state after the last event; intermediate states are only needed when one
 * command decides several content-changing events, which no command does.
 */
export async function commitEvents(
  tx: Sql,
  targetId: string,
  streamVersion: number,
  events: TargetEvent[],
  stateAfter: TargetState,
  recordedAt: string,
  metadata: Record<string, unknown>,
): Promise<number[]> {
  if (events.length === 0) return [];
  const { positions } = await appendToStream(
    tx,
    targetStreamId(targetId),
    streamVersion,
    events.map((e) => ({ type: e.type, schemaVersion: TARGET_EVENT_SCHEMA_VERSION, data: e.data, metadata, recordedAt })),
  );
  await projectInline(
    tx,
    events.map((event, i) => ({
      event,
      position: positions[i],
      streamVersion: streamVersion + i + 1,
      recordedAt,
      stateAfter,
    })),
  );
  return positions;
}
