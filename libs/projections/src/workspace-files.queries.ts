import type { PublishMode, WorkspaceFileBoundData } from '@palimpsest/core/target/target.events';
import type { LineEndingStyle } from '@palimpsest/core/text/canonical-text';
import type { Sql } from '@palimpsest/store/db';
import type { TargetHead } from './content/content-cache';
import { HEAD_COLUMNS } from './content/target-row.queries';

/** The workspace file a target is bound to, as get_target shows it, with its publication mode. */
export type WorkspaceBinding = Omit<WorkspaceFileBoundData, 'target_id' | 'bound_at'> & { publish: PublishMode };

/** The binding of a target imported from the workspace, or null (created from content, or unknown). */
export async function workspaceBindingOf(sql: Sql, targetId: string): Promise<WorkspaceBinding | null> {
  const { rows } = await sql.query(
    `SELECT path, root_dev, root_ino, file_dev, file_ino, source_sha256, source_line_ending_style, publish
       FROM workspace_files WHERE target_id = $1`,
    [targetId],
  );
  return (rows[0] as WorkspaceBinding | undefined) ?? null;
}

export type JournalState = 'started' | 'pending_reconcile';

/** A bound file's row: where it is, the bytes it should hold, and the publication journal open on it. */
export interface WorkspaceFileRow {
  target_id: string;
  path: string;
  root_dev: string;
  root_ino: string;
  disk_sha256: string;
  /** The line-ending style of the bytes the file was bound with. */
  source_line_ending_style: LineEndingStyle;
  open_journal_id: string | null;
  journal_state: JournalState | null;
  /** The target version whose text the file holds (a target past it is ahead of its file). */
  disk_version: number;
  /** When an accepted direct submission reaches the file. */
  publish: PublishMode;
}

export const FILE_COLUMNS = `w.target_id::text AS target_id, w.path, w.root_dev, w.root_ino, w.disk_sha256, w.source_line_ending_style,
  w.open_journal_id::text AS open_journal_id, w.journal_state, w.disk_version::int AS disk_version, w.publish`;

/** The workspace file row of a target (null when it is not bound); read under the target's row lock by a refresh. */
export async function workspaceFileOf(sql: Sql, targetId: string): Promise<WorkspaceFileRow | null> {
  const { rows } = await sql.query<WorkspaceFileRow>(`SELECT ${FILE_COLUMNS} FROM workspace_files w WHERE w.target_id = $1::uuid`, [targetId]);
  return rows[0] ?? null;
}

export interface WorkspaceFilesQuery {
  /** Only paths that start with this text. */
  pathPrefix: string | null;
  /** Only files with an open journal or a target ahead of them (the `pending` state is the read model's, not the disk's). */
  pendingOnly: boolean;
  /** Exclusive: the (path, target_id) the previous page ended with. */
  after: { path: string; target_id: string } | null;
  limit: number;
}

export interface WorkspaceFilesPage {
  rows: (WorkspaceFileRow & { version: number })[];
  /** Every bound file the filter matches, on every page. */
  total: number;
  truncated: boolean;
}

/** One page of bound files in (path, target_id) order (byte order on every backend), with each target's version. */
export async function workspaceFilesPage(sql: Sql, q: WorkspaceFilesQuery): Promise<WorkspaceFilesPage> {
  const where = [`($1::text IS NULL OR left(w.path, length($1::text)) = $1::text)`, q.pendingOnly ? '(w.journal_state IS NOT NULL OR t.version > w.disk_version)' : 'true'];
  const { rows: counted } = await sql.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM workspace_files w JOIN targets t ON t.target_id = w.target_id WHERE ${where.join(' AND ')}`,
    [q.pathPrefix],
  );
  const { rows } = await sql.query<WorkspaceFileRow & { version: number }>(
    `SELECT ${FILE_COLUMNS}, t.version FROM workspace_files w JOIN targets t ON t.target_id = w.target_id
      WHERE ${where.join(' AND ')} AND ($2::text IS NULL OR (w.path COLLATE "C", w.target_id::text) > ($2::text COLLATE "C", $3::text))
      ORDER BY w.path COLLATE "C", w.target_id::text LIMIT $4`,
    [q.pathPrefix, q.after?.path ?? null, q.after?.target_id ?? null, q.limit + 1],
  );
  return { rows: rows.slice(0, q.limit).map((r) => ({ ...r, version: Number(r.version) })), total: Number(counted[0]!.n), truncated: rows.length > q.limit };
}

/** The target bound last to a path under a root (a path can be imported more than once): the one the file tools write through; with its target's version. */
export async function latestBindingOfPath(sql: Sql, root: { dev: string; ino: string }, path: string): Promise<(WorkspaceFileRow & { version: number }) | null> {
  const { rows } = await sql.query<WorkspaceFileRow & { version: number }>(
    `SELECT ${FILE_COLUMNS}, t.version::int AS version FROM workspace_files w JOIN targets t ON t.target_id = w.target_id
      WHERE w.root_dev = $1 AND w.root_ino = $2 AND w.path = $3
      ORDER BY w.log_sequence DESC LIMIT 1`,
    [root.dev, root.ino, path],
  );
  return rows[0] ?? null;
}

/**
 * The files under a root (and a path prefix) that are behind their target: the latest binding of each
 * path, its target past the version the file holds, no publication journal open. At most `limit`, in path order.
 */
export async function filesBehindTargets(sql: Sql, root: { dev: string; ino: string }, pathPrefix: string | null, limit: number): Promise<(WorkspaceFileRow & { version: number })[]> {
  const { rows } = await sql.query<WorkspaceFileRow & { version: number }>(
    `SELECT * FROM (
       SELECT DISTINCT ON (w.path) ${FILE_COLUMNS}, t.version::int AS version, t.version > w.disk_version AS behind
         FROM workspace_files w JOIN targets t ON t.target_id = w.target_id
        WHERE w.root_dev = $1 AND w.root_ino = $2 AND ($3::text IS NULL OR left(w.path, length($3::text)) = $3::text)
        ORDER BY w.path, w.log_sequence DESC) latest
      WHERE behind AND journal_state IS NULL ORDER BY path COLLATE "C" LIMIT $4`,
    [root.dev, root.ino, pathPrefix, limit],
  );
  return rows.map(({ behind: _behind, ...row }: WorkspaceFileRow & { version: number; behind?: boolean }) => row);
}

/**
 * The latest binding of a path with its target's head (everything of the target row but its text), by
 * one statement: a file tool that finds the text in the cache needs nothing more to decide.
 */
export async function latestBindingWithHead(sql: Sql, root: { dev: string; ino: string }, path: string): Promise<(WorkspaceFileRow & { version: number; head: TargetHead }) | null> {
  const { rows } = await sql.query<WorkspaceFileRow & { version: number; head: TargetHead }>(
    `SELECT ${FILE_COLUMNS}, t.version::int AS version,
            (SELECT to_jsonb(h) FROM (SELECT ${HEAD_COLUMNS} FROM targets WHERE targets.target_id = t.target_id) h) AS head
       FROM workspace_files w JOIN targets t ON t.target_id = w.target_id
      WHERE w.root_dev = $1 AND w.root_ino = $2 AND w.path = $3
      ORDER BY w.log_sequence DESC LIMIT 1`,
    [root.dev, root.ino, path],
  );
  return rows[0] ?? null;
}

/** The latest binding of every path under a root, in path order: what start-up looks for leftovers beside. */
export async function latestBindingsUnder(sql: Sql, root: { dev: string; ino: string }): Promise<WorkspaceFileRow[]> {
  const { rows } = await sql.query<WorkspaceFileRow>(
    `SELECT DISTINCT ON (w.path) ${FILE_COLUMNS} FROM workspace_files w
      WHERE w.root_dev = $1 AND w.root_ino = $2 ORDER BY w.path, w.log_sequence DESC`,
    [root.dev, root.ino],
  );
  return rows;
}

/** Every target bound to a file under a root (each once), in target order: what a workspace's audit bundle holds. */
export async function targetsBoundUnder(sql: Sql, root: { dev: string; ino: string }): Promise<string[]> {
  const { rows } = await sql.query<{ target_id: string }>(
    `SELECT DISTINCT w.target_id::text AS target_id FROM workspace_files w WHERE w.root_dev = $1 AND w.root_ino = $2 ORDER BY 1`,
    [root.dev, root.ino],
  );
  return rows.map((r) => r.target_id);
}
