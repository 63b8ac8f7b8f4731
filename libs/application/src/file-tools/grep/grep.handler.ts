import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { FILE_READ_LIMITS } from '@palimpsest/protocol/catalog/operations/file-reads.operations';
import { grepTimeoutFromEnv, grepWorkspace } from '@palimpsest/workspace/workspace-grep';
import type { GrepMatch } from '@palimpsest/workspace/workspace-grep.worker';
import type { AppContext } from '../../app-context';
import { pathRefusalAnswer, type WorkspaceFileNotFound } from '../../shared/workspace-text';
import { createHash } from 'node:crypto';
import { checkWorkspacePath } from '@palimpsest/core/workspace/workspace-path';
import { filesBehindTargets } from '@palimpsest/projections/workspace-files.queries';
import { readTargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { AppContext as Ctx } from '../../app-context';
import { fileBytesOf } from '../../workspace-publication/file-bytes';
import { noWorkspace } from '../file-tool-answers';
import type { PendingFile } from '../shared/behind-disk';

export interface GrepInput {
  pattern: string;
  path?: string;
  glob?: string;
  caseInsensitive?: boolean;
  maxResults?: number;
}

export interface GrepAnswer {
  status: 'ok';
  matches: GrepMatch[];
  truncated: boolean;
  /** Files searched in their target's text because the disk is behind (at most MAX_LISTED_PENDING). */
  pending?: PendingFile[];
}

/** Bound files behind their target that one grep searches in their target's text; past it, as on disk. */
const MAX_BEHIND_FILES = 1000;
const MAX_LISTED_PENDING = 20;

/**
 * grep (seed 004): the regular expression runs in a worker thread under a time budget
 * (PALIMPSEST_GREP_TIMEOUT_MS, default 1 s, read per call); past it the answer is TOOL_TIMEOUT. Reads
 * record nothing: this works under read_only. A bound file behind its target is searched in the target's
 * text, like read_file reads it (file-tools/shared/behind-disk.ts), and listed in `pending`.
 */
export async function grep(ctx: AppContext, input: GrepInput): Promise<GrepAnswer | InvalidArgument | WorkspaceFileNotFound> {
  if (!ctx.workspace) return noWorkspace('grep');
  const behind = await behindTexts(ctx, input.path);
  const used: PendingFile[] = [];
  const substitute = (path: string, bytes: Uint8Array): Uint8Array => {
    const b = behind.get(path);
    if (!b || createHash('sha256').update(bytes).digest('hex') !== b.disk_sha256) return bytes;
    used.push(b.pending);
    return b.bytes;
  };
  const outcome = await grepWorkspace(ctx.workspace, {
    substitute,
    pattern: input.pattern,
    path: input.path,
    glob: input.glob,
    caseInsensitive: input.caseInsensitive === true,
    maxResults: Math.min(input.maxResults ?? FILE_READ_LIMITS.MAX_GREP_MATCHES, FILE_READ_LIMITS.MAX_GREP_MATCHES),
    timeoutMs: grepTimeoutFromEnv(),
  });
  switch (outcome.kind) {
    case 'done':
      return { status: 'ok', matches: outcome.matches, truncated: outcome.truncated, ...(used.length ? { pending: used.slice(0, MAX_LISTED_PENDING) } : {}) };
    case 'refused':
      return pathRefusalAnswer(outcome.refusal, 'path');
    case 'invalid_pattern':
      return invalidArgument('INVALID_ARGUMENTS', `pattern is not a valid JavaScript regular expression: ${outcome.message}`, { argument: 'pattern' });
    case 'timeout':
      return invalidArgument('TOOL_TIMEOUT', `grep ran past its ${outcome.budgetMs} ms budget and was stopped: narrow the pattern (or path and glob), and avoid nested repetition like (a+)+.`, { argument: 'pattern', budget_ms: outcome.budgetMs });
  }
}

/** The bound files under `path` behind their target, each with its target's text as the file's bytes. */
async function behindTexts(ctx: Ctx, path: string | undefined): Promise<Map<string, { disk_sha256: string; bytes: Buffer; pending: PendingFile }>> {
  const out = new Map<string, { disk_sha256: string; bytes: Buffer; pending: PendingFile }>();
  const checked = path === undefined ? null : checkWorkspacePath(path);
  if (checked?.kind === 'refused') return out; // grep answers the refusal itself
  const prefix = checked ? checked.value.path : null;
  for (const row of await filesBehindTargets(ctx.db, ctx.workspace!, prefix, MAX_BEHIND_FILES)) {
    const target = await readTargetRow(ctx.db, row.target_id, ctx.contents);
    if (!target) continue;
    const { bytes } = fileBytesOf(target.content, target.source_line_endings, row.source_line_ending_style);
    out.set(row.path, { disk_sha256: row.disk_sha256, bytes, pending: { path: row.path, target_file_id: row.target_id, version: target.version, disk_version: row.disk_version } });
  }
  return out;
}
