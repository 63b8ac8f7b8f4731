import type { InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { decide as decidePublication } from '@palimpsest/core/publication/publication.decider';
import type { TargetRefusal } from '@palimpsest/core/target/target-decision';
import type { ExistingTarget } from '@palimpsest/core/target/target.state';
import { decideRefresh } from '@palimpsest/core/target/workspace-refresh.decision';
import type { TargetRow } from '@palimpsest/projections/content/target-row.queries';
import { loadJournal } from '@palimpsest/projections/publications/publication-append';
import { commitPublicationEvents } from '../shared/commit-events';
import { workspaceFileOf, type WorkspaceFileRow } from '@palimpsest/projections/workspace-files.queries';
import type { StoreTx } from '@palimpsest/store/event-store';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import type { AppContext } from '../app-context';
import { importWorkspaceFile, type WorkspaceFileNotFound } from '../initialize-target/workspace-import';
import type { TargetUnit } from '../shared/handle-command';
import { commitDecided, runTargetCommand, type Step } from '../shared/target-pipeline/target-pipeline';
import type { Decided } from '../shared/target-refusals';

/** The guards a refresh may carry: the target it expects to take the file's bytes into. */
export interface RefreshGuards {
  expected_target_version: number | null;
  expected_current_hash: string | null;
}

/** Why the bound file's bytes were not taken in (nothing was recorded). */
export type RefreshRefusal =
  | { kind: 'target_not_found'; targetId: string }
  | { kind: 'not_bound'; targetId: string }
  | { kind: 'root_mismatch'; targetId: string; file: WorkspaceFileRow; root: WorkspaceRoot }
  /** The bound file cannot be read as text (gone, too large, not UTF-8, …): what reading it answered. */
  | { kind: 'unreadable'; path: string; answer: InvalidArgument | WorkspaceFileNotFound }
  | { kind: 'target'; refusal: TargetRefusal };

/** What taking in the bound file's bytes did: nothing (they are the baseline), a recorded external change, or a refusal. */
export type DiskIntake =
  | { kind: 'in_sync'; target: TargetRow; file: WorkspaceFileRow; diskSha: string }
  | { kind: 'refreshed'; target: ExistingTarget; file: WorkspaceFileRow; diskSha: string; attemptId: string | null; journalResolved: string | null }
  | { kind: 'refused'; refusal: RefreshRefusal };

/**
 * The domain step of palimpsest_workspace_refresh, which the file tools take too before they write a
 * bound file whose bytes moved: a command of the target pipeline. Under the target's row lock the bound
 * file is read; bytes that no longer hash to the baseline are taken in as an accepted whole replacement
 * (source external_disk) followed by WorkspaceFileRefreshed, in one transaction. A pending_reconcile
 * journal on the file is closed by it.
 */
export function takeInDiskChange(ctx: AppContext, root: WorkspaceRoot, targetId: string, guards: RefreshGuards): Promise<DiskIntake> {
  const attemptId = ctx.ids.next();
  const now = ctx.clock.now();
  return runTargetCommand<DiskIntake>(ctx, {
    targetId,
    locked: async (target, unit): Promise<Step<DiskIntake>> => ({ kind: 'answer', answer: await intake(target, unit) }),
  });

  async function intake(target: TargetRow | null, unit: TargetUnit): Promise<DiskIntake> {
    const refused = (refusal: RefreshRefusal): DiskIntake => ({ kind: 'refused', refusal });
    if (!target) return refused({ kind: 'target_not_found', targetId });
    const file = await workspaceFileOf(unit.tx, targetId);
    if (!file) return refused({ kind: 'not_bound', targetId });
    if (file.root_dev !== root.dev || file.root_ino !== root.ino) return refused({ kind: 'root_mismatch', targetId, file, root });
    const read = await importWorkspaceFile(root, file.path);
    if (!read.ok) return refused({ kind: 'unreadable', path: file.path, answer: read.answer });
    const diskSha = read.source.source_sha256;
    if (diskSha === file.disk_sha256) return { kind: 'in_sync', target, file, diskSha };
    const outcome = decideRefresh(
      {
        now,
        attempt_id: attemptId,
        path: file.path,
        content: read.content,
        disk_sha256: diskSha,
        previous_disk_sha256: file.disk_sha256,
        expected_target_version: guards.expected_target_version,
        expected_current_hash: guards.expected_current_hash,
      },
      target,
    );
    if (outcome.kind === 'refused') return refused({ kind: 'target', refusal: outcome.refusal });
    await commitDecided(unit, target, outcome, now, { command: 'RefreshWorkspaceFile' });
    const taken = takenAttempt(outcome);
    const journalResolved = await closePendingJournal(unit.tx, file, taken, now);
    return { kind: 'refreshed', target: outcome.state.exists ? outcome.state : target, file, diskSha, attemptId: taken, journalResolved };
  }
}

function takenAttempt(outcome: Decided): string | null {
  const refreshed = outcome.events.find((e) => e.type === 'WorkspaceFileRefreshed');
  if (refreshed?.type !== 'WorkspaceFileRefreshed') throw new Error('a refresh decided no WorkspaceFileRefreshed');
  return refreshed.data.attempt_id;
}

/** A pending_reconcile journal on the file ends with the refresh: its bytes are now on the record (PublicationResolved). */
async function closePendingJournal(tx: StoreTx, file: WorkspaceFileRow, attemptId: string | null, now: string): Promise<string | null> {
  if (file.journal_state !== 'pending_reconcile' || !file.open_journal_id) return null;
  const loaded = await loadJournal(tx, file.open_journal_id);
  const d = decidePublication({ type: 'ResolvePublication', now, target_id: file.target_id, attempt_id: attemptId }, loaded.state);
  if (d.kind === 'refused') return null; // settled meanwhile by another process
  await commitPublicationEvents(tx, file.open_journal_id, loaded, d.events, now, { command: 'RefreshWorkspaceFile' });
  return file.open_journal_id;
}
