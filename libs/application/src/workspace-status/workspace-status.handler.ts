import { invalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { workspaceFilesPage, type WorkspaceFileRow } from '@palimpsest/projections/workspace-files.queries';
import { hashWorkspaceFileBounded } from '@palimpsest/workspace/workspace-file-reader';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import type { PublishMode } from '@palimpsest/core/target/target.events';
import type { AppContext } from '../app-context';
import { workspaceNotConfigured } from '../shared/workspace-not-configured';

export const FILE_STATES = ['in_sync', 'drifted', 'missing', 'pending', 'unreachable'] as const;
export type FileState = (typeof FILE_STATES)[number];

export const STATUS_DEFAULT_LIMIT = 100;

export interface WorkspaceStatusInput {
  path_prefix?: string | null;
  state?: FileState | null;
  limit?: number | null;
  cursor?: string | null;
}

export interface FileStatus {
  path: string;
  target_file_id: string;
  /** The target's version, and the version whose text the file holds: a target past it is ahead (pending). */
  version: number;
  disk_version: number;
  publish: PublishMode;
  state: FileState;
  disk_sha256: string;
  observed_sha256: string | null;
  journal: { id: string; state: string } | null;
  /** For unreachable: the path refusal (or workspace_root_mismatch). */
  code?: string;
}

/** The page cursor: the (path, target_id) the page ended with, opaque to callers. */
const encodeCursor = (row: { path: string; target_id: string }) => Buffer.from(JSON.stringify([row.path, row.target_id])).toString('base64url');

function decodeCursor(cursor: string): { path: string; target_id: string } | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') return { path: value[0], target_id: value[1] };
  } catch {
    // not a cursor this operation issued
  }
  return null;
}

const badCursor = () => invalidArgument('invalid_cursor', 'cursor is not one a previous page returned as next_cursor.', { argument: 'cursor' });

/**
 * What is on disk for one bound file, against the bytes it should hold (hashed in chunks: a large file is
 * never held whole). pending: a publication journal is open on it, or its target is ahead of it (a change
 * accepted and not yet published, under publish on_save). A file changed outside Palimpsest is drifted
 * whatever its target did.
 */
async function observe(root: WorkspaceRoot, row: WorkspaceFileRow & { version: number }): Promise<FileStatus> {
  const journal = row.open_journal_id && row.journal_state ? { id: row.open_journal_id, state: row.journal_state } : null;
  const base = { path: row.path, target_file_id: row.target_id, version: row.version, disk_version: row.disk_version, publish: row.publish, disk_sha256: row.disk_sha256, journal };
  if (row.root_dev !== root.dev || row.root_ino !== root.ino) return { ...base, state: 'unreachable', observed_sha256: null, code: 'workspace_root_mismatch' };
  const read = await hashWorkspaceFileBounded(root, row.path);
  // Every file was at most the limit when it was bound: one over it now is not the bytes it should hold.
  if (read.kind === 'too_large') return { ...base, state: journal ? 'pending' : 'drifted', observed_sha256: null, code: 'file_too_large' };
  if (read.kind === 'refused') {
    if (read.refusal.code === 'PATH_NOT_FOUND') return { ...base, state: journal ? 'pending' : 'missing', observed_sha256: null };
    return { ...base, state: journal ? 'pending' : 'unreachable', observed_sha256: null, code: read.refusal.code };
  }
  const observed = read.sha256;
  const state: FileState = journal ? 'pending' : observed !== row.disk_sha256 ? 'drifted' : row.version > row.disk_version ? 'pending' : 'in_sync';
  return { ...base, state, observed_sha256: observed };
}

/**
 * palimpsest_workspace_status: one entry per bound file, a page at a time in path order. Each file on
 * the page is read and hashed (the IO is bounded by the page size); a state filter applies to the page
 * after the reads, so a filtered page can hold fewer entries than `limit` while next_cursor continues.
 */
export async function workspaceStatus(ctx: AppContext, input: WorkspaceStatusInput) {
  const root = ctx.workspace;
  if (!root) {
    return workspaceNotConfigured('The workspace status reads files under the workspace root');
  }
  const after = input.cursor == null ? null : decodeCursor(input.cursor);
  if (input.cursor != null && !after) return badCursor();
  const limit = input.limit ?? STATUS_DEFAULT_LIMIT;
  const page = await workspaceFilesPage(ctx.db, { pathPrefix: input.path_prefix ?? null, pendingOnly: input.state === 'pending', after, limit });
  const files = (await Promise.all(page.rows.map((row) => observe(root, row)))).filter((f) => input.state == null || f.state === input.state);
  const last = page.rows[page.rows.length - 1];
  return {
    status: 'ok' as const,
    root: { path: root.path, dev: root.dev, ino: root.ino },
    files,
    total: page.total,
    truncated: page.truncated,
    next_cursor: page.truncated && last ? encodeCursor(last) : null,
  };
}
