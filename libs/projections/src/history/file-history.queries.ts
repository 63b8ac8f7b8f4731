import type { Sql } from '@palimpsest/store/db';
import { everyEventWhere } from '@palimpsest/store/stored-event';

/** One version of a target in a file's history, with the text's size after it (code points). */
export interface FileVersionRow {
  version: number;
  attempt_id: string | null;
  source: string | null;
  intent: string | null;
  after_hash: string;
  log_sequence: number;
  written_at: Date;
  /** Null when an older acceptance recorded no effects to count from. */
  size: number | null;
}

/**
 * A target's versions newest first, below `beforeVersion` when given, `limit` of them. Each size is the
 * creation's text length plus every acceptance's effects up to it, counted in the database from the log.
 */
export async function fileVersionsPage(sql: Sql, targetId: string, streamId: string, beforeVersion: number | null, limit: number): Promise<FileVersionRow[]> {
  const { rows } = await sql.query<FileVersionRow>(
    `WITH steps AS (
       SELECT 0 AS version, NULL::text AS attempt_id, NULL::text AS source, NULL::text AS intent, s.current_hash AS after_hash,
              s.log_sequence, s.created_at AS written_at,
              (SELECT char_length(e.data->>'content') FROM ${everyEventWhere('stream_id = $2 AND stream_version = 1')} e)::bigint AS delta
         FROM target_snapshots s WHERE s.target_id = $1 AND s.snapshot_reason = 'initial'
       UNION ALL
       SELECT a.after_version::int, a.attempt_id::text, a.source, left(a.intent, 200), e.data->>'after_hash', a.log_sequence, a.created_at,
              CASE WHEN e.schema_version >= 2 THEN (SELECT COALESCE(sum(char_length(x->>'inserted') - ((x->>'end')::bigint - (x->>'start')::bigint)), 0)
                                                      FROM jsonb_array_elements(e.data->'effects') x) END
         FROM attempts a CROSS JOIN LATERAL ${everyEventWhere('global_position = a.log_sequence')} e
        WHERE a.target_id = $1 AND a.status = 'accepted'),
     sized AS (
       SELECT *, CASE WHEN bool_and(delta IS NOT NULL) OVER w THEN sum(delta) OVER w END AS size
         FROM steps WINDOW w AS (ORDER BY version ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW))
     SELECT version, attempt_id, source, intent, after_hash, log_sequence::float8 AS log_sequence, written_at, size::float8 AS size
       FROM sized WHERE ($3::int IS NULL OR version < $3::int) ORDER BY version DESC LIMIT $4::int`,
    [targetId, streamId, beforeVersion, limit],
  );
  return rows;
}

/** A bound file's version at one point of the log. */
export interface WorkspaceFileAsOf {
  path: string;
  target_file_id: string;
  version: number;
  after_hash: string;
  log_sequence: number;
  written_at: Date;
}

/**
 * Every file bound under a root at a point of the log (bound at or before it), with its target's last
 * version at or before that point: one statement, so every file's answer is of the same log.
 */
export async function workspaceFilesAsOf(sql: Sql, root: { dev: string; ino: string }, point: { position: number } | { time: string }, afterPath: string | null, limit: number): Promise<WorkspaceFileAsOf[]> {
  const byPosition = 'position' in point;
  const cond = (alias: string, seq: string, at: string) => (byPosition ? `${alias}.${seq} <= $3::bigint` : `${alias}.${at} <= $3::timestamptz`);
  const { rows } = await sql.query<WorkspaceFileAsOf>(
    `SELECT DISTINCT ON (w.path) w.path, w.target_id::text AS target_file_id, v.version, v.after_hash, v.log_sequence::float8 AS log_sequence, v.written_at
       FROM workspace_files w
       JOIN target_snapshots s ON s.target_id = w.target_id AND s.snapshot_reason = 'initial'
       CROSS JOIN LATERAL (
         SELECT * FROM (
           SELECT a.after_version::int AS version, e.data->>'after_hash' AS after_hash, a.log_sequence, a.created_at AS written_at
             FROM attempts a CROSS JOIN LATERAL ${everyEventWhere('global_position = a.log_sequence')} e WHERE a.target_id = w.target_id AND a.status = 'accepted' AND ${cond('a', 'log_sequence', 'created_at')}
           UNION ALL
           SELECT 0, s.current_hash, s.log_sequence, s.created_at) c
         ORDER BY c.version DESC LIMIT 1) v
      WHERE w.root_dev = $1 AND w.root_ino = $2 AND ${cond('s', 'log_sequence', 'created_at')}
        AND ($4::text IS NULL OR w.path > $4::text)
      ORDER BY w.path, w.log_sequence DESC LIMIT $5::int`,
    [root.dev, root.ino, byPosition ? point.position : point.time, afterPath, limit],
  );
  return rows;
}
