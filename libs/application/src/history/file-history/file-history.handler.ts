import type { InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import { targetStreamId } from '@palimpsest/core/target/target.events';
import { fileVersionsPage } from '@palimpsest/projections/history/file-history.queries';
import type { AppContext } from '../../app-context';
import { noWorkspace } from '../../file-tools/file-tool-answers';
import type { WorkspaceFileNotFound } from '../../shared/workspace-text';
import { boundTargetOfPath } from '../as-of/bound-path';

export interface FileHistoryInput {
  path: string;
  before_version?: number | null;
  limit?: number | null;
}

/** Who wrote a version: an agent's submission or file tool, the disk taken in by a refresh, an undo, or the import. */
export type VersionSource = 'created' | 'agent' | 'external_disk' | 'undo';

export interface FileVersion {
  version: number;
  attempt_id: string | null;
  source: VersionSource;
  /** The attempt's own source field, as it was submitted (null for the creation). */
  attempt_source: string | null;
  intent: string | null;
  written_at: string;
  log_sequence: number;
  /** The text's length after this version, in code points. */
  size: number | null;
  after_hash: string;
}

export interface FileHistoryAnswer {
  status: 'ok';
  path: string;
  target_file_id: string;
  versions: FileVersion[];
  /** Pass as before_version for the next page (older versions); null when this page reaches version 0. */
  next_before_version: number | null;
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

function sourceOf(version: number, source: string | null): VersionSource {
  if (version === 0 || source === null) return 'created';
  if (source === 'external_disk') return 'external_disk';
  if (source === 'undo' || source.startsWith('undo')) return 'undo';
  return 'agent';
}

/**
 * palimpsest_file_history: the versions of a workspace file's target, newest first, a page at a time;
 * each one readable with read_file as_of { version } and comparable with palimpsest_diff_versions.
 */
export async function fileHistory(ctx: AppContext, input: FileHistoryInput): Promise<FileHistoryAnswer | InvalidArgument | WorkspaceFileNotFound> {
  if (!ctx.workspace) return noWorkspace(OP.palimpsest_file_history);
  const bound = await boundTargetOfPath(ctx, ctx.workspace, input.path);
  if (!bound.ok) return bound.answer;
  const id = bound.row.target_id;
  const limit = Math.min(input.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  const rows = await fileVersionsPage(ctx.db, id, targetStreamId(id), input.before_version ?? null, limit);
  const versions = rows.map((r) => ({
    version: r.version,
    attempt_id: r.attempt_id,
    source: sourceOf(r.version, r.source),
    attempt_source: r.source,
    intent: r.intent,
    written_at: new Date(r.written_at).toISOString(),
    log_sequence: r.log_sequence,
    size: r.size,
    after_hash: r.after_hash,
  }));
  const last = versions[versions.length - 1];
  return { status: 'ok', path: bound.row.path, target_file_id: id, versions, next_before_version: last && last.version > 0 && versions.length === limit ? last.version : null };
}
