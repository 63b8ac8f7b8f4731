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

/**
 * A run the service died under: its group was recorded as started and its end never was, or the policy let
 * it run and neither its start nor any end was recorded (the start waits a moment to go with the exit):
 * then `pgid` is null and its processes are found by the run's marker in their environment.
 */
export interface UnsettledRun {
  run_id: string;
  command: string;
  pgid: number | null;
  leader: string | null;
}

/**
 * The runs a killed service left open, from the log itself (a run's record is its stream): each run
 * started, or let run by the policy, without a CommandExited, a refusal or a cleanup's CommandKilled after it.
 */
export async function unsettledRuns(sql: Sql): Promise<UnsettledRun[]> {
  const { rows } = await sql.query<{ run_id: string; command: string; pgid: number | null; leader: string | null }>(
    `SELECT r.data->>'run_id' AS run_id, r.data->>'command' AS command, (s.data->>'pgid')::int AS pgid, s.data->>'leader' AS leader
       FROM events r LEFT JOIN events s ON s.stream_id = r.stream_id AND s.event_type = 'CommandStarted'
      WHERE r.event_type = 'CommandRequested'
        AND (s.stream_id IS NOT NULL OR r.data->'decision'->>'verdict' = 'run')
        AND NOT EXISTS (SELECT 1 FROM events e WHERE e.stream_id = r.stream_id
                          AND (e.event_type IN ('CommandExited', 'CommandRefused') OR (e.event_type = 'CommandKilled' AND e.data->>'reason' = 'crash_cleanup')))
      ORDER BY r.global_position`,
  );
  return rows;
}
