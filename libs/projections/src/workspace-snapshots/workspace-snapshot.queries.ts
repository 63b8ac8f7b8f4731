import { SNAPSHOT_CAPTURED, type WorkspaceSnapshotCapturedData } from '@palimpsest/core/snapshot/snapshot.events';
import type { LineEndingStyle } from '@palimpsest/core/text/canonical-text';
import type { Sql } from '@palimpsest/store/db';
import { readStream } from '@palimpsest/store/read-stream';
import { everyEventWhere } from '@palimpsest/store/stored-event';

/** The record of workspace snapshots: their events (a stream each), and the bindings a capture reads. */

export interface RecordedSnapshot {
  data: WorkspaceSnapshotCapturedData;
  /** The event's global position: the snapshot's point in the log. */
  position: number;
}

/** The snapshot recorded in `streamId`, or null when no capture under that root recorded that content. */
export async function recordedSnapshot(sql: Sql, streamId: string): Promise<RecordedSnapshot | null> {
  const [event] = await readStream(sql, streamId, { limit: 1 });
  if (!event || event.type !== SNAPSHOT_CAPTURED) return null;
  return { data: event.data as WorkspaceSnapshotCapturedData, position: event.globalPosition };
}

/** The newest position on the log (its archive's newest when every epoch is archived; 0 when empty): where an unrecorded capture stands. */
export async function logHead(sql: Sql): Promise<number> {
  const { rows } = await sql.query<{ head: string }>(
    'SELECT COALESCE((SELECT max(global_position) FROM events), (SELECT max(global_position) FROM events_archive), 0)::text AS head',
  );
  return Number(rows[0]!.head);
}

export interface SnapshotSummary {
  snapshot: string;
  position: number;
  captured_at: string;
  files: number;
  total_bytes: number;
}

/** A root's snapshots, newest first: at most `limit`, and how many it has in all. */
export async function recentSnapshots(sql: Sql, root: { dev: string; ino: string }, limit: number): Promise<{ snapshots: SnapshotSummary[]; total: number }> {
  const where = `event_type = '${SNAPSHOT_CAPTURED}' AND data->'root'->>'dev' = $1 AND data->'root'->>'ino' = $2`;
  const { rows } = await sql.query<{ snapshot: string; position: string; captured_at: string; files: number; total_bytes: string }>(
    `SELECT data->>'snapshot' AS snapshot, global_position::text AS position, data->>'captured_at' AS captured_at,
            jsonb_array_length(data->'files') AS files, data->>'total_bytes' AS total_bytes
       FROM ${everyEventWhere(where)} captured ORDER BY global_position DESC LIMIT $3`,
    [root.dev, root.ino, limit],
  );
  const { rows: counted } = await sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${everyEventWhere(where)} captured`, [root.dev, root.ino]);
  const snapshots = rows.map((r) => ({ snapshot: r.snapshot, position: Number(r.position), captured_at: r.captured_at, files: Number(r.files), total_bytes: Number(r.total_bytes) }));
  return { snapshots, total: Number(counted[0]!.n) };
}

/** The latest binding of each path under a root: the target, the bytes the file should hold, and the version they are. */
export interface PathBinding {
  path: string;
  target_id: string;
  disk_sha256: string;
  disk_version: number;
  source_line_ending_style: LineEndingStyle;
}

export async function bindingsUnder(sql: Sql, root: { dev: string; ino: string }): Promise<Map<string, PathBinding>> {
  const { rows } = await sql.query<PathBinding>(
    `SELECT DISTINCT ON (w.path) w.path, w.target_id::text AS target_id, w.disk_sha256, w.disk_version::int AS disk_version, w.source_line_ending_style
       FROM workspace_files w WHERE w.root_dev = $1 AND w.root_ino = $2
      ORDER BY w.path, w.log_sequence DESC`,
    [root.dev, root.ino],
  );
  return new Map(rows.map((r) => [r.path, { ...r, disk_version: Number(r.disk_version) }]));
}

/** The newest target a path under the root was imported into from exactly these bytes (its version 0 is them), or null. */
export async function importOfBytes(sql: Sql, root: { dev: string; ino: string }, path: string, sha256: string): Promise<string | null> {
  const { rows } = await sql.query<{ target_id: string }>(
    `SELECT w.target_id::text AS target_id FROM workspace_files w
      WHERE w.root_dev = $1 AND w.root_ino = $2 AND w.path = $3 AND w.source_sha256 = $4
      ORDER BY w.log_sequence DESC LIMIT 1`,
    [root.dev, root.ino, path, sha256],
  );
  return rows[0]?.target_id ?? null;
}
