import type { LineEndingStyle, SourceLineEndings } from '@palimpsest/core/text/canonical-text';
import { targetStreamId } from '@palimpsest/core/target/target.events';
import type { Sql } from '@palimpsest/store/db';
import { EVENTS_AND_ARCHIVE, everyEventWhere } from '@palimpsest/store/stored-event';
import { AUDIT_STREAM, CHECKPOINT_EVENT, type CheckpointEventData } from '../audit/audit-log.reactor';

/** Where a bound target's file is: its workspace path under the root (dev, ino), with the line endings it was bound with. */
export interface FileBinding {
  target_id: string;
  path: string;
  root_dev: string;
  root_ino: string;
  source_line_ending_style: LineEndingStyle;
}

/** The bindings of those of `targetIds` that are bound to a workspace file. */
export async function bindingsOf(sql: Sql, targetIds: readonly string[]): Promise<Map<string, FileBinding>> {
  if (targetIds.length === 0) return new Map();
  const { rows } = await sql.query<FileBinding>(
    `SELECT target_id::text AS target_id, path, root_dev, root_ino, source_line_ending_style FROM workspace_files WHERE target_id = ANY($1::uuid[])`,
    [targetIds],
  );
  return new Map(rows.map((r) => [r.target_id, r]));
}

/** The latest signed checkpoint of the audit log (size, hex root and note), or null before the first. */
export async function latestCheckpoint(sql: Sql): Promise<CheckpointEventData | null> {
  const { rows } = await sql.query<{ data: CheckpointEventData }>(
    `SELECT data FROM ${everyEventWhere('stream_id = $1 AND event_type = $2')} e ORDER BY stream_version DESC LIMIT 1`,
    [AUDIT_STREAM, CHECKPOINT_EVENT],
  );
  return rows[0]?.data ?? null;
}

/** The signed checkpoints of the log of a size (one, unless the log was forked). */
export async function checkpointsOfSize(sql: Sql, size: number): Promise<CheckpointEventData[]> {
  const { rows } = await sql.query<{ data: CheckpointEventData }>(
    `SELECT data FROM ${everyEventWhere("stream_id = $1 AND event_type = $2 AND (data->>'size')::bigint = $3")} e`,
    [AUDIT_STREAM, CHECKPOINT_EVENT, size],
  );
  return rows.map((r) => r.data);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One acceptance of an attempt, as its event in the log records it. */
export interface AttemptAcceptance {
  target_id: string;
  before_version: number;
  after_version: number;
  /** The acceptance event's place in the log. */
  global_position: number;
}

/** The acceptances the log records for an attempt (none when the log has no accepted attempt of that id). */
export async function acceptancesOfAttempt(sql: Sql, attemptId: string): Promise<AttemptAcceptance[]> {
  if (!UUID.test(attemptId)) return [];
  const { rows: attempts } = await sql.query<{ target_id: string }>(
    `SELECT target_id::text AS target_id FROM attempts WHERE attempt_id = $1::uuid`,
    [attemptId.toLowerCase()],
  );
  if (attempts.length === 0) return [];
  const { rows } = await sql.query<AttemptAcceptance>(
    `SELECT data->>'target_id' AS target_id, (data->>'before_version')::int AS before_version, (data->>'after_version')::int AS after_version,
            global_position::float8 AS global_position
       FROM ${everyEventWhere("stream_id = ANY($1::text[]) AND event_type = 'ProposalAccepted' AND data->>'attempt_id' = $2")} e
      ORDER BY global_position`,
    [attempts.map((a) => targetStreamId(a.target_id)), attemptId.toLowerCase()],
  );
  return rows;
}

/**
 * A consumer seen for the first time starts at the log's last committed event (commit-safe order), not at
 * its beginning: commits publish what is accepted from the opt-in on, not the history before it. A
 * consumer with a checkpoint keeps it; on an empty log nothing is written (the consumer starts at 0). The
 * head may be archived (a log rolled and archived since its last event): the history before it is not published either.
 */
export async function startAtLogHead(sql: Sql, consumer: string): Promise<void> {
  await sql.query(
    `INSERT INTO projection_checkpoints (projection, last_xid, last_position)
     SELECT $1, transaction_xid, global_position FROM ${EVENTS_AND_ARCHIVE} AS events ORDER BY transaction_xid DESC, global_position DESC LIMIT 1
     ON CONFLICT (projection) DO NOTHING`,
    [consumer],
  );
}

/** A target's line-ending record and file binding as the log held them at a position (not as the read models hold them now). */
export interface LoggedFileRecord {
  source_line_endings: SourceLineEndings | null;
  /** Its last WorkspaceFileBound up to the position; null when it was bound to no file then. */
  binding: { path: string; source_line_ending_style: LineEndingStyle } | null;
}

/** The record of `targetId` from its own events at or before `position`; null when the target did not exist then. */
export async function fileRecordAt(sql: Sql, targetId: string, position: number): Promise<LoggedFileRecord | null> {
  const { rows } = await sql.query<{ event_type: string; endings: SourceLineEndings | null; path: string | null; style: LineEndingStyle | null }>(
    `SELECT event_type, data->'source_line_endings' AS endings, data->>'path' AS path, data->>'source_line_ending_style' AS style
       FROM ${everyEventWhere("stream_id = $1 AND event_type IN ('TargetInitialized', 'WorkspaceFileBound') AND global_position <= $2")} e
      ORDER BY stream_version`,
    [targetStreamId(targetId), position],
  );
  const initialized = rows.find((r) => r.event_type === 'TargetInitialized');
  if (!initialized) return null;
  const bound = rows.filter((r) => r.event_type === 'WorkspaceFileBound').at(-1);
  return {
    source_line_endings: initialized.endings ?? null,
    binding: bound?.path && bound.style ? { path: bound.path, source_line_ending_style: bound.style } : null,
  };
}
