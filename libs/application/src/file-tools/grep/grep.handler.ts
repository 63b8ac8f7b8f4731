import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { FILE_READ_LIMITS } from '@palimpsest/protocol/catalog/operations/file-reads.operations';
import { elementSentBytes, MAX_RESULT_BYTES, sentBytes } from '@palimpsest/protocol/result-bytes';
import { grepWorkspace } from '@palimpsest/workspace/workspace-grep';
import type { GrepMatch } from '@palimpsest/workspace/workspace-grep.worker';
import type { AppContext } from '../../app-context';
import { pathRefusalAnswer, type WorkspaceFileNotFound } from '../../shared/workspace-text';
import { checkWorkspacePath } from '@palimpsest/core/workspace/workspace-path';
import { noWorkspace } from '../file-tool-answers';
import { behindSubstitution, type PendingFile } from '../shared/behind-disk';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

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

const MAX_LISTED_PENDING = 20;

/**
 * grep (seed 004): the regular expression runs in a worker thread under a time budget
 * (PALIMPSEST_GREP_TIMEOUT_MS, default 1 s, read per call); past it the answer is TOOL_TIMEOUT. Reads
 * record nothing: this works under read_only. A bound file behind its target is searched in the target's
 * text, like read_file reads it (file-tools/shared/behind-disk.ts), and listed in `pending`.
 */
export async function grep(ctx: AppContext, input: GrepInput): Promise<GrepAnswer | InvalidArgument | WorkspaceFileNotFound> {
  if (!ctx.workspace) return noWorkspace(OP.grep);
  const checked = input.path === undefined ? null : checkWorkspacePath(input.path);
  // A refused path is answered by the search itself, which refuses it the same way.
  const { substitute, used } = await behindSubstitution(ctx, checked?.kind === 'valid' ? checked.value.path : null);
  const outcome = await grepWorkspace(ctx.workspace, {
    substitute,
    pattern: input.pattern,
    path: input.path,
    glob: input.glob,
    caseInsensitive: input.caseInsensitive === true,
    maxResults: Math.min(input.maxResults ?? FILE_READ_LIMITS.MAX_GREP_MATCHES, FILE_READ_LIMITS.MAX_GREP_MATCHES),
    timeoutMs: ctx.grepTimeoutMs,
  });
  switch (outcome.kind) {
    case 'done':
      return withinBudget(outcome.matches, outcome.truncated, used.length ? { pending: used.slice(0, MAX_LISTED_PENDING) } : {});
    case 'refused':
      return pathRefusalAnswer(outcome.refusal, 'path');
    case 'invalid_pattern':
      return invalidArgument('INVALID_ARGUMENTS', `pattern is not a valid JavaScript regular expression: ${outcome.message}`, { argument: 'pattern' });
    case 'timeout':
      return invalidArgument('TOOL_TIMEOUT', `grep ran past its ${outcome.budgetMs} ms budget and was stopped: narrow the pattern (or path and glob), and avoid nested repetition like (a+)+.`, { argument: 'pattern', budget_ms: outcome.budgetMs });
  }
}

/** The matches that fit MAX_RESULT_BYTES as sent; the rest are dropped (truncated: narrow the pattern, path or glob). */
function withinBudget(matches: GrepMatch[], truncated: boolean, extra: Pick<GrepAnswer, 'pending'>): GrepAnswer {
  let bytes = sentBytes({ status: 'ok', matches: [], truncated: true, ...extra });
  const kept = matches.findIndex((m) => (bytes += elementSentBytes(m)) > MAX_RESULT_BYTES);
  return kept < 0 ? { status: 'ok', matches, truncated, ...extra } : { status: 'ok', matches: matches.slice(0, kept), truncated: true, ...extra };
}
