import type { NextAction, Retryable } from '@palimpsest/core/errors/error-model';
import type { Refusal } from '@palimpsest/protocol/refusal';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

/**
 * The pieces every publication's answer mapping shares (a save, an apply, a file-tool write): the
 * recorded-nothing rejection and the next actions that point at the file and its journal.
 */

/** A publication refused before installation: nothing on disk changed and no change was recorded. */
export function publicationRejected(targetId: string | null, failure_reason: string, failure_detail: string, retryable: Retryable, diagnostic: Record<string, unknown>, next_actions: NextAction[]): Refusal<'rejected'> {
  return { status: 'rejected', target_file_id: targetId, failure_reason, failure_detail, retryable, diagnostic: { code: failure_reason, ...diagnostic }, next_actions };
}

export const workspaceStatusAction = (path: string, reason = 'See the file and its journal as they are now'): NextAction & { operation: OP.palimpsest_workspace_status } => ({
  operation: OP.palimpsest_workspace_status,
  reason,
  params: { path_prefix: path },
});

export const workspaceRefreshAction = (targetId: string, reason: string): NextAction & { operation: OP.palimpsest_workspace_refresh } => ({
  operation: OP.palimpsest_workspace_refresh,
  reason,
  params: { target_file_id: targetId },
});

/** A publication installed but not known to be recorded (partial): what the answer says, and where to look. */
export function installedUncertain(
  result: { kind: 'durability_uncertain' | 'outcome_uncertain'; journal_id: string; detail: string },
  path: string,
  targetId: string | null,
  inspect: string,
): Refusal<'partial'> {
  const durability = result.kind === 'durability_uncertain';
  return {
    status: 'partial',
    target_file_id: targetId,
    code: durability ? 'workspace_durability_uncertain' : 'workspace_checkpoint_uncertain',
    failure_detail: `${path} was installed, and ${durability ? 'the directory fsync failed, so the change was not recorded' : 'whether the change was recorded is unknown'} (${result.detail}). Inspect ${inspect} before going on.`,
    path,
    journal: { id: result.journal_id, state: durability ? 'committed' : 'unknown' },
    next_actions: [workspaceStatusAction(path)],
  };
}
