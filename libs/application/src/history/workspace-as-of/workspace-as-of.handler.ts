import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import { parseAsOf } from '@palimpsest/core/history/text-as-of';
import { workspaceFilesAsOf } from '@palimpsest/projections/history/file-history.queries';
import type { AppContext } from '../../app-context';
import { noWorkspace } from '../../file-tools/file-tool-answers';

export interface WorkspaceAsOfInput {
  as_of: unknown;
  limit?: number | null;
  cursor?: string | null;
}

export interface FileAsOf {
  path: string;
  target_file_id: string;
  version: number;
  after_hash: string;
  written_at: string;
  log_sequence: number;
}

export interface WorkspaceAsOfAnswer {
  status: 'ok';
  as_of: { position: number } | { time: string };
  files: FileAsOf[];
  next_cursor: string | null;
}

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

const encodeCursor = (path: string) => Buffer.from(JSON.stringify([path])).toString('base64url');

function decodeCursor(cursor: string): string | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 1 && typeof value[0] === 'string') return value[0];
  } catch {
    // not a cursor this operation issued
  }
  return null;
}

/**
 * palimpsest_workspace_as_of: every file bound under the workspace root at a point of the log, each with
 * the last version of its target at or before that point. A page is one statement (one state of the log);
 * the point is fixed and the log only grows past it, so later pages answer of the same history.
 */
export async function workspaceAsOf(ctx: AppContext, input: WorkspaceAsOfInput): Promise<WorkspaceAsOfAnswer | InvalidArgument> {
  if (!ctx.workspace) return noWorkspace(OP.palimpsest_workspace_as_of);
  const parsed = parseAsOf(input.as_of);
  if (!parsed.ok) return parsed.error;
  const point = parsed.value;
  if (!point || 'version' in point) {
    return invalidArgument('invalid_as_of', 'as_of names a point of the whole log: { "position": p } or { "time": RFC 3339 } (versions are per file).', { argument: 'as_of' });
  }
  const after = input.cursor == null ? null : decodeCursor(input.cursor);
  if (input.cursor != null && after === null) return invalidArgument('invalid_cursor', 'cursor is not one a previous page returned as next_cursor.', { argument: 'cursor' });
  const limit = Math.min(input.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  const rows = await workspaceFilesAsOf(ctx.db, ctx.workspace, point, after, limit + 1);
  const files = rows.slice(0, limit).map((r) => ({ ...r, written_at: new Date(r.written_at).toISOString() }));
  const last = files[files.length - 1];
  return { status: 'ok', as_of: point, files, next_cursor: rows.length > limit && last ? encodeCursor(last.path) : null };
}
