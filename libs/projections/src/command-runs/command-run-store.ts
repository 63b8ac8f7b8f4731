import { COMMAND_RUN_EVENT_SCHEMA_VERSION, COMMAND_RUN_EVENT_TYPES, commandRunStreamId, type CommandRunEvent } from '@palimpsest/core/command-run/command-run.events';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Sql } from '@palimpsest/store/db';
import { readStream } from '@palimpsest/store/read-stream';

/**
 * The command-run aggregate's writes and reads. Every append of a run goes through appendCommandRunEvents,
 * one statement at the stream version the caller last saw (a racing writer fails it); the run has no read
 * model of its own yet: its stream is its record, read whole (a run is a handful of events).
 */
export async function appendCommandRunEvents(
  sql: Sql,
  runId: string,
  expectedVersion: number,
  events: CommandRunEvent[],
  recordedAt: string,
  metadata: Record<string, unknown>,
): Promise<number> {
  const stored = events.map((e) => ({ type: e.type, schemaVersion: COMMAND_RUN_EVENT_SCHEMA_VERSION, data: e.data, metadata, recordedAt }));
  return (await appendToStream(sql, commandRunStreamId(runId), expectedVersion, stored)).nextExpectedVersion;
}

const isCommandRunType = (type: string): type is CommandRunEvent['type'] => (COMMAND_RUN_EVENT_TYPES as readonly string[]).includes(type);

export interface LoadedCommandRun {
  events: CommandRunEvent[];
  streamVersion: number;
  recordedAt: string[];
  metadata: Record<string, unknown>[];
}

export async function loadCommandRun(sql: Sql, runId: string): Promise<LoadedCommandRun> {
  const stored = await readStream(sql, commandRunStreamId(runId));
  const events: CommandRunEvent[] = [];
  for (const s of stored) {
    if (!isCommandRunType(s.type)) throw new Error(`${s.type} is not a command-run event`);
    events.push({ type: s.type, data: s.data });
  }
  return { events, streamVersion: stored.length, recordedAt: stored.map((s) => s.recordedAt), metadata: stored.map((s) => s.metadata) };
}

/** A run whose group was recorded as started and whose end never was: the service died under it. */
export interface UnsettledRun {
  run_id: string;
  command: string;
  pgid: number;
  leader: string | null;
}

/**
 * The runs a killed service left open, from the log itself (a run's record is its stream): each
 * CommandStarted without a CommandExited or a cleanup's CommandKilled after it.
 */
export async function unsettledRuns(sql: Sql): Promise<UnsettledRun[]> {
  const { rows } = await sql.query<{ run_id: string; command: string; pgid: number; leader: string | null }>(
    `SELECT s.data->>'run_id' AS run_id, r.data->>'command' AS command, (s.data->>'pgid')::int AS pgid, s.data->>'leader' AS leader
       FROM events s JOIN events r ON r.stream_id = s.stream_id AND r.event_type = 'CommandRequested'
      WHERE s.event_type = 'CommandStarted'
        AND NOT EXISTS (SELECT 1 FROM events e WHERE e.stream_id = s.stream_id
                          AND (e.event_type = 'CommandExited' OR (e.event_type = 'CommandKilled' AND e.data->>'reason' = 'crash_cleanup')))
      ORDER BY s.global_position`,
  );
  return rows;
}
