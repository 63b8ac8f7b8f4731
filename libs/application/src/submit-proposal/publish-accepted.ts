import type { NextAction } from '@palimpsest/core/errors/error-model';
import { invalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { TargetDecision } from '@palimpsest/core/target/target-decision';
import type { TargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { Committed } from '../shared/commit-events';
import type { WorkspaceFileRow } from '@palimpsest/projections/workspace-files.queries';
import type { Sql } from '@palimpsest/store/db';
import type { AppContext } from '../app-context';
import type { Refusal } from '@palimpsest/protocol/refusal';
import { publishChange } from '../shared/target-pipeline/publication-step';
import type { AcceptedChange } from '../shared/target-pipeline/target-pipeline';
import type { Decided } from '../shared/target-refusals';
import { submissionPublicationRefusal } from './submission-publication-answer';

/**
 * An accepted direct submission to a target whose workspace file publishes it on acceptance (publish
 * on_accept): the pipeline's publication step, as for the file tools' writes. Nothing is recorded before
 * the file is installed; the ProposalAccepted commits with PublicationCompleted. A file changed outside
 * Palimpsest is found by the journal's drift checks before anything is written, and the submission is
 * refused external_disk_drift with nothing recorded: an accepted change never waits unpublished behind
 * the caller's back.
 */

export interface PublishSteps<R> {
  /** The same submission decided again on a row that moved since it was decided (lookups read again). */
  decideAgain: (tx: Sql, locked: TargetRow) => Promise<TargetDecision>;
  /** The answer of the committed decision (what the locked path answers for an unbound target). */
  answer: (locked: TargetRow, outcome: Decided, done: Committed) => R;
  /** The same request again, for a refusal the caller clears by resending it. */
  resend: NextAction;
  /** What the committed events carry beside their data (the command, the caller's session). */
  metadata: Record<string, unknown>;
}

/** 'moved': the target moved between the decision and the lock (nothing was written); decide again from the start. */
export async function publishAccepted<R extends { status: string }>(ctx: AppContext, change: AcceptedChange, binding: WorkspaceFileRow, steps: PublishSteps<R>): Promise<R | Refusal<'rejected' | 'partial' | 'invalid_argument' | 'not_found'> | 'moved'> {
  const targetId = change.on.target_id;
  const unreachable = reachability(ctx, targetId, binding);
  if (unreachable) return unreachable;
  const r = await publishChange<never>(ctx, {
    change,
    file: { path: binding.path, baseline: binding.disk_sha256, style: binding.source_line_ending_style },
    metadata: steps.metadata,
    decideAgain: async (tx, locked) => ({ decision: await steps.decideAgain(tx, locked), decidedAt: change.decidedAt }),
  });
  if (r.kind === 'moved' || r.kind === 'stopped') return 'moved';
  if (r.kind === 'unpublished') return submissionPublicationRefusal(r.result, targetId, binding.path, steps.resend);
  const f = r.installed;
  const workspace_sync = {
    synced_path: f.path,
    disk_sha256: f.disk_sha256,
    bytes_written: f.bytes_written,
    content_eol: r.content_eol,
    publication: 'installed' as const,
    durability: f.durability,
    journal: { id: r.journal_id, state: 'committed' as const },
    ...(r.cleanup_error === null ? {} : { cleanup_error: r.cleanup_error }),
  };
  return { ...steps.answer(r.change.on, r.change.decided, r.committed), workspace_sync };
}

/** This process must reach the bound file to accept a change to it: the configured root is the one the target was bound under. */
function reachability(ctx: AppContext, targetId: string, binding: WorkspaceFileRow): Refusal<'invalid_argument'> | null {
  const root = ctx.workspace;
  const bound = `Target ${targetId} is bound to the workspace file ${binding.path}, and an accepted change to it is published to that file before the answer`;
  if (!root) {
    return invalidArgument('workspace_not_configured', `${bound}; this process has no workspace root (PALIMPSEST_WORKSPACE_ROOT), so nothing was recorded. Send the change to a process configured with the target's workspace root.`, {
      argument: 'target_file_id',
      path: binding.path,
    });
  }
  if (root.dev === binding.root_dev && root.ino === binding.root_ino) return null;
  return invalidArgument('workspace_root_mismatch', `${bound}; it was bound under the root ${binding.root_dev}:${binding.root_ino} and this process's root is ${root.path} (${root.dev}:${root.ino}), so nothing was recorded.`, {
    argument: 'target_file_id',
    path: binding.path,
    bound_root: { dev: binding.root_dev, ino: binding.root_ino },
    configured_root: { dev: root.dev, ino: root.ino },
  });
}
