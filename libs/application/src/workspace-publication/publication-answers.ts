import type { NextAction } from '@palimpsest/core/errors/error-model';
import type { Answer } from '../shared/answer';

/**
 * The pieces every publication's answer mapping shares (a save, an apply, a file-tool write): the
 * recorded-nothing rejection and the next actions that point at the file and its journal.
 */

/** A publication refused before installation: nothing on disk changed and no change was recorded. */
export function publicationRejected(targetId: string | null, failure_reason: string, failure_detail: string, retryable: string, diagnostic: Record<string, unknown>, next_actions: unknown[]): Answer<'rejected'> {
  return { status: 'rejected', target_file_id: targetId, failure_reason, failure_detail, retryable, diagnostic: { code: failure_reason, ...diagnostic }, next_actions };
}

export const workspaceStatusAction = (path: string, reason = 'See the file and its journal as they are now'): NextAction & { operation: 'palimpsest_workspace_status' } => ({
  operation: 'palimpsest_workspace_status',
  reason,
  params: { path_prefix: path },
});

export const workspaceRefreshAction = (targetId: string, reason: string): NextAction & { operation: 'palimpsest_workspace_refresh' } => ({
  operation: 'palimpsest_workspace_refresh',
  reason,
  params: { target_file_id: targetId },
});
