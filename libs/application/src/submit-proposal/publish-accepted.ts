import type { NextAction } from '@palimpsest/core/errors/error-model';
import { invalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { TargetDecision } from '@palimpsest/core/target/target-decision';
import { lockTargetRow, type TargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { WorkspaceFileRow } from '@palimpsest/projections/workspace-files.queries';
import type { Sql } from '@palimpsest/store/db';
import type { AppContext } from '../app-context';
import type { Refusal } from '@palimpsest/protocol/refusal';
import type { CommitTargetEvents } from '../shared/commit-events';
import type { Decided } from '../shared/target-refusals';
import { fileBytesOf } from '../workspace-publication/file-bytes';
import { publishFiles } from '../workspace-publication/publish-files';
import { submissionPublicationRefusal } from './submission-publication-answer';

/**
 * An accepted direct submission to a target whose workspace file publishes it on acceptance (publish
 * on_accept): the same path as the file tools' writes (file-tools/shared/guarded-write.ts). Nothing is
 * recorded before the file is installed: the change is published through the journal (kind 'write', the
 * replaced file backed up), and decided again under the row lock in the outcome transaction, where its
 * ProposalAccepted commits with PublicationCompleted. A file changed outside Palimpsest is found by the
 * journal's drift checks before anything is written, and the submission is refused external_disk_drift
 * with nothing recorded: an accepted change never waits unpublished behind the caller's back.
 */

/** An accepted change decided under the row lock, nothing of it recorded yet, and the file it must reach. */
export interface ToPublish {
  kind: 'publish';
  target: Extract<TargetRow, { exists: true }>;
  outcome: Decided;
  binding: WorkspaceFileRow;
}

export interface PublishSteps<R> {
  /** The same submission decided again on the row locked in the outcome transaction (lookups read again). */
  decideAgain: (tx: Sql, locked: Extract<TargetRow, { exists: true }>) => Promise<TargetDecision>;
  /** Commit the decision and answer it (what the locked path does for an unbound target). */
  record: (locked: Extract<TargetRow, { exists: true }>, outcome: Decided, commit: CommitTargetEvents) => Promise<R>;
  /** The same request again, for a refusal the caller clears by resending it. */
  resend: NextAction;
}

const acceptedHash = (d: TargetDecision): string | null => {
  const e = d.kind === 'decided' && !d.recoveredAttemptId ? d.events[0] : undefined;
  return e?.type === 'ProposalAccepted' ? e.data.after_hash : null;
};

/** 'moved': the target moved between the decision and the lock (nothing was written); decide again from the start. */
export async function publishAccepted<R extends { status: string }>(ctx: AppContext, plan: ToPublish, steps: PublishSteps<R>): Promise<R | Refusal<'rejected' | 'partial' | 'invalid_argument' | 'not_found'> | 'moved'> {
  const { target, outcome, binding } = plan;
  const targetId = target.target_id;
  const unreachable = reachability(ctx, targetId, binding);
  if (unreachable) return unreachable;
  const after = outcome.state.exists ? outcome.state : null;
  if (!after) throw new Error('submission: an accepted change left no target');
  const file = fileBytesOf(after.content, target.source_line_endings, binding.source_line_ending_style);
  const result = await publishFiles<{ kind: 'moved' } | { kind: 'accepted'; answer: R }>(ctx, {
    kind: 'write',
    request_id: null,
    candidate_id: null,
    files: [{ target_id: targetId, path: binding.path, target_version: after.version, bytes: file.bytes, content_eol: file.content_eol, replaced_sha256: binding.disk_sha256, backup: true }],
    outcome: async (tx, commit) => {
      const locked = await lockTargetRow(tx, targetId, ctx.contents);
      const again = locked ? await steps.decideAgain(tx, locked) : null;
      if (!locked || !again || again.kind !== 'decided' || locked.version !== target.version || acceptedHash(again) !== acceptedHash(outcome)) {
        return { go: false, answer: { kind: 'moved' as const }, detail: `target ${targetId} moved from version ${target.version} before ${binding.path} was installed` };
      }
      return { go: true, finish: async () => ({ kind: 'accepted' as const, answer: await steps.record(locked, again, commit) }) };
    },
  });
  if (result.kind === 'stopped') return 'moved';
  if (result.kind !== 'published') return submissionPublicationRefusal(result, targetId, binding.path, steps.resend);
  if (result.value.kind !== 'accepted') return 'moved';
  const f = result.installed[0];
  const workspace_sync = {
    synced_path: f.path,
    disk_sha256: f.disk_sha256,
    bytes_written: f.bytes_written,
    content_eol: file.content_eol,
    publication: 'installed' as const,
    durability: f.durability,
    journal: { id: result.journal_id, state: 'committed' as const },
    ...(result.cleanup_error === null ? {} : { cleanup_error: result.cleanup_error }),
  };
  return { ...result.value.answer, workspace_sync };
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
