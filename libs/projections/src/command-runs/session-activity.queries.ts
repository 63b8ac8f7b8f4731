import type { Sql } from '@palimpsest/store/db';
import { everyEventWhere } from '@palimpsest/store/stored-event';

/**
 * What one client session did, in log order: the edits its file tools recorded and its command runs
 * (request, approval, start, exit…), all carrying the session's correlation id in their metadata. An
 * auditor reads "edited src/a.ts, ran npm test, exit 1, edited again" off it.
 */
export interface SessionActivityRow {
  global_position: string;
  stream_id: string;
  event_type: string;
  tool: string | null;
  recorded_at: Date;
  data: Record<string, unknown>;
}

export async function sessionActivity(sql: Sql, correlationId: string, limit = 500): Promise<SessionActivityRow[]> {
  const { rows } = await sql.query<SessionActivityRow>(
    `SELECT e.global_position::text AS global_position, e.stream_id, e.event_type, e.metadata->>'tool' AS tool, e.recorded_at, e.data
       FROM ${everyEventWhere("metadata->>'correlation_id' = $1")} e ORDER BY e.global_position LIMIT $2`,
    [correlationId, Math.min(Math.max(limit, 1), 5_000)],
  );
  return rows;
}

/** The events that start an entry of a session's activity: an edit's decision, or a command's request. */
const EDIT_EVENTS = ['ProposalAccepted', 'ProposalRejected'];
const RUN_EVENT = 'CommandRequested';
const ENTRY_EVENTS = [...EDIT_EVENTS, RUN_EVENT];

/**
 * One entry of a session's activity: an edit (its attempt, accepted or rejected) or a command run (its
 * request, and how the run's stream ends so far). A run's later events need not carry the session's
 * id (a kill by another caller, a restart's cleanup): the run is the session's, its whole stream is read.
 */
export interface SessionEntryRow {
  position: string;
  event_type: string;
  tool: string | null;
  recorded_at: Date;
  /** Edits. */
  target_id: string | null;
  path: string | null;
  attempt_id: string | null;
  intent: string | null;
  after_version: number | null;
  failure_reason: string | null;
  /** Command runs. */
  run_id: string | null;
  command: string | null;
  /** The event that ended the run (CommandExited, CommandRefused, CommandKilled), or the furthest it came. */
  run_state: string | null;
  exit_code: number | null;
  signal: string | null;
  refusal_code: string | null;
  refusal_reason: string | null;
  duration_ms: number | null;
  ended_at: Date | null;
}

/**
 * A page of one session's entries after `afterPosition`, in log order; `limit + 1` rows are read, so a
 * caller knows whether more follow.
 */
export async function sessionEntries(sql: Sql, q: { correlationId: string; afterPosition: number; limit: number }): Promise<SessionEntryRow[]> {
  const { rows } = await sql.query<SessionEntryRow>(
    `SELECT e.global_position::text AS position, e.event_type, e.metadata->>'tool' AS tool, e.recorded_at,
            e.data->>'target_id' AS target_id, w.path, e.data->>'attempt_id' AS attempt_id, e.data->>'intent' AS intent,
            (e.data->>'after_version')::int AS after_version, e.data->>'failure_reason' AS failure_reason,
            CASE WHEN e.event_type = '${RUN_EVENT}' THEN e.data->>'run_id' END AS run_id,
            CASE WHEN e.event_type = '${RUN_EVENT}' THEN e.data->>'command' END AS command,
            COALESCE(x.event_type, k.event_type, p.event_type) AS run_state,
            (x.data->>'exit_code')::int AS exit_code, x.data->>'signal' AS signal,
            CASE WHEN x.event_type = 'CommandRefused' THEN x.data->>'code' END AS refusal_code,
            CASE WHEN x.event_type = 'CommandRefused' THEN x.data->>'reason' END AS refusal_reason,
            (x.data->>'duration_ms')::int AS duration_ms, COALESCE(x.recorded_at, k.recorded_at) AS ended_at
       FROM ${everyEventWhere("metadata->>'correlation_id' = $1 AND event_type = ANY($2::text[]) AND global_position > $3")} e
       LEFT JOIN workspace_files w ON e.event_type <> '${RUN_EVENT}' AND w.target_id::text = e.data->>'target_id'
       LEFT JOIN LATERAL (SELECT o.event_type, o.data, o.recorded_at
                            FROM ${everyEventWhere(`e.event_type = '${RUN_EVENT}' AND stream_id = e.stream_id AND event_type IN ('CommandExited', 'CommandRefused')`)} o
                           ORDER BY o.global_position LIMIT 1) x ON true
       LEFT JOIN LATERAL (SELECT o.event_type, o.recorded_at
                            FROM ${everyEventWhere(`e.event_type = '${RUN_EVENT}' AND stream_id = e.stream_id AND event_type = 'CommandKilled'`)} o
                           ORDER BY o.global_position LIMIT 1) k ON true
       LEFT JOIN LATERAL (SELECT o.event_type
                            FROM ${everyEventWhere(`e.event_type = '${RUN_EVENT}' AND stream_id = e.stream_id AND global_position > e.global_position`)} o
                           ORDER BY o.global_position DESC LIMIT 1) p ON true
      ORDER BY e.global_position LIMIT $4`,
    [q.correlationId, ENTRY_EVENTS, q.afterPosition, q.limit + 1],
  );
  return rows;
}

/** A session as the audit lists it: its id, what it did and when. */
export interface SessionSummaryRow {
  correlation_id: string;
  edits: number;
  command_runs: number;
  first_at: Date;
  last_at: Date;
  first_position: string;
  last_position: string;
}

/**
 * Sessions whose last entry is before `beforePosition` (null: every one), the most recently active
 * first; `limit + 1` rows are read, so a caller knows whether more follow.
 */
export async function recentSessions(sql: Sql, q: { beforePosition: number | null; limit: number }): Promise<SessionSummaryRow[]> {
  const { rows } = await sql.query<SessionSummaryRow>(
    `SELECT s.* FROM (
       SELECT e.metadata->>'correlation_id' AS correlation_id,
              count(*) FILTER (WHERE e.event_type <> '${RUN_EVENT}')::int AS edits,
              count(*) FILTER (WHERE e.event_type = '${RUN_EVENT}')::int AS command_runs,
              min(e.recorded_at) AS first_at, max(e.recorded_at) AS last_at,
              min(e.global_position)::text AS first_position, max(e.global_position)::text AS last_position
         FROM ${everyEventWhere("metadata->>'correlation_id' IS NOT NULL AND event_type = ANY($1::text[])")} e
        GROUP BY 1) s
      WHERE $2::bigint IS NULL OR s.last_position::bigint < $2::bigint
      ORDER BY s.last_position::bigint DESC LIMIT $3`,
    [ENTRY_EVENTS, q.beforePosition, q.limit + 1],
  );
  return rows;
}
