import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { TargetRefusal } from '@palimpsest/core/target/target-decision';
import { decideRefresh } from '@palimpsest/core/target/workspace-refresh.decision';
import { lockTargetRow, type TargetRow } from '@palimpsest/projections/content/target-row.queries';
import { workspaceFileOf, type WorkspaceFileRow } from '@palimpsest/projections/workspace-files.queries';
import { decide as decidePublication } from '@palimpsest/core/publication/publication.decider';
import { commitPublicationEvents, loadJournal } from '@palimpsest/projections/publications/publication-commit';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import type { AppContext } from '../app-context';
import { importWorkspaceFile } from '../initialize-target/workspace-import';
import type { Refusal } from '@palimpsest/protocol/refusal';
import type { NextAction } from '@palimpsest/core/errors/error-model';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { Success } from '@palimpsest/protocol/catalog/operation-types';
import { commitOf } from '../shared/commit-events';
import { targetUnitOfWork, type TargetUnit } from '../shared/handle-command';
import { notFound, targetIdOf, type NotFound } from '../shared/target-lookup';
import { refusalAnswer, type Decided, type UnrecordedRejection } from '../shared/target-refusals';
import { workspaceNotConfigured } from '../shared/workspace-not-configured';

export interface WorkspaceRefreshInput {
  target_file_id: unknown;
  expected_target_version?: number | null;
  expected_current_hash?: string | null;
}

/** The refresh's success with the reads that follow it; one member per status, so a check of the status narrows it. */
type Refreshed = RefreshedAs<'refreshed'> | RefreshedAs<'in_sync'>;
type RefreshedAs<S extends Success<OP.palimpsest_workspace_refresh>['status']> = Success<OP.palimpsest_workspace_refresh> & { status: S; next_actions: NextAction[] };

/** A path refusal of the bound file: not_found PATH_NOT_FOUND, or invalid_argument with the path code. */
type FileRefusal = Refusal<'not_found' | 'invalid_argument'>;

export type RefreshAnswer = Refreshed | InvalidArgument | NotFound | FileRefusal | UnrecordedRejection;

const notConfigured = () =>
  workspaceNotConfigured('A refresh reads the bound file under the workspace root', {
    argument: 'target_file_id',
  });

function checkBinding(targetId: string, file: WorkspaceFileRow | null, root: WorkspaceRoot): InvalidArgument | null {
  if (!file) {
    return invalidArgument('target_not_bound_to_workspace', `Target ${targetId} was not imported from a workspace file: there is nothing to refresh from.`, {
      argument: 'target_file_id',
    });
  }
  if (file.root_dev !== root.dev || file.root_ino !== root.ino) {
    return invalidArgument('workspace_root_mismatch', `Target ${targetId} is bound to another workspace root than the one configured.`, {
      argument: 'target_file_id',
      bound_root: { dev: file.root_dev, ino: file.root_ino },
      configured_root: { path: root.path, dev: root.dev, ino: root.ino },
    });
  }
  return null;
}

/**
 * palimpsest_workspace_refresh: under the target's row lock, read the bound file; bytes that no longer
 * hash to the baseline are taken in as an accepted whole replacement (source external_disk) followed by
 * WorkspaceFileRefreshed, in one transaction. A pending_reconcile journal on the file is closed by it.
 */
export async function refreshWorkspaceFile(ctx: AppContext, input: WorkspaceRefreshInput): Promise<RefreshAnswer> {
  const { id: targetId, error } = targetIdOf(input.target_file_id);
  if (error) return error;
  const root = ctx.workspace;
  if (!root) return notConfigured();
  const attemptId = ctx.ids.next();
  const now = ctx.clock.now();
  return targetUnitOfWork(ctx)(async ({ tx, commit }: TargetUnit) => {
    const target = await lockTargetRow(tx, targetId, ctx.contents);
    if (!target) return notFound(targetId);
    const file = await workspaceFileOf(tx, targetId);
    const unbound = checkBinding(targetId, file, root);
    if (unbound || !file) return unbound as InvalidArgument;
    const read = await importWorkspaceFile(root, file.path);
    if (!read.ok) return { ...read.answer, argument: 'target_file_id', path: file.path };
    const diskSha = read.source.source_sha256;
    if (diskSha === file.disk_sha256) return answer('in_sync', target, file, diskSha);
    const outcome = decideRefresh(
      {
        now,
        attempt_id: attemptId,
        path: file.path,
        content: read.content,
        disk_sha256: diskSha,
        previous_disk_sha256: file.disk_sha256,
        expected_target_version: input.expected_target_version ?? null,
        expected_current_hash: input.expected_current_hash ?? null,
      },
      target,
    );
    if (outcome.kind === 'refused') return refused(outcome.refusal);
    await commit(commitOf(target, outcome, now, { command: 'RefreshWorkspaceFile' }));
    const taken = takenAttempt(outcome);
    const resolved = await closePendingJournal(tx, file, taken, now);
    return answer('refreshed', after(target, outcome), file, diskSha, { attempt_id: taken, previous_disk_sha256: file.disk_sha256, journal_resolved: resolved });
  });
}

function takenAttempt(outcome: Decided): string | null {
  const refreshed = outcome.events.find((e) => e.type === 'WorkspaceFileRefreshed');
  if (refreshed?.type !== 'WorkspaceFileRefreshed') throw new Error('a refresh decided no WorkspaceFileRefreshed');
  return refreshed.data.attempt_id;
}

/** A pending_reconcile journal on the file ends with the refresh: its bytes are now on the record (PublicationResolved). */
async function closePendingJournal(tx: TargetUnit['tx'], file: WorkspaceFileRow, attemptId: string | null, now: string): Promise<string | null> {
  if (file.journal_state !== 'pending_reconcile' || !file.open_journal_id) return null;
  const loaded = await loadJournal(tx, file.open_journal_id);
  const d = decidePublication({ type: 'ResolvePublication', now, target_id: file.target_id, attempt_id: attemptId }, loaded.state);
  if (d.kind === 'refused') return null; // settled meanwhile by another process
  await commitPublicationEvents(tx, file.open_journal_id, loaded, d.events, now, { command: 'RefreshWorkspaceFile' });
  return file.open_journal_id;
}

/** The usual refusal; a stale guard's next action is a re-read, then this refresh with the new guard. */
function refused(refusal: TargetRefusal): RefreshAnswer {
  const answer = refusalAnswer(refusal);
  if (refusal.kind !== 'guard_stale') return answer;
  const reason = `The target moved to version ${refusal.current_version}: re-read it, then refresh with the new guard.`;
  return { ...answer, next_actions: [{ operation: OP.palimpsest_get_target, reason, params: { target_file_id: refusal.target_id } }] };
}

const after = (target: TargetRow, outcome: Decided) => (outcome.state.exists ? outcome.state : target);

type Taken = Required<Pick<Refreshed, 'attempt_id' | 'previous_disk_sha256' | 'journal_resolved'>>;

function answer(status: Refreshed['status'], t: { target_id: string; version: number; current_hash: string }, file: WorkspaceFileRow, diskSha: string, taken?: Taken): Refreshed {
  const next: Refreshed['next_actions'] = [
    { operation: OP.palimpsest_workspace_status, reason: 'See every bound file\'s state.', params: { path_prefix: file.path } },
  ];
  if (taken) {
    next.unshift({ operation: OP.palimpsest_get_attempt_log, reason: 'The external change is recorded as an accepted attempt.', params: { target_file_id: t.target_id, limit: 1 } });
  }
  const head = { status, target_file_id: t.target_id, path: file.path };
  const state = { version: t.version, current_hash: t.current_hash, disk_sha256: diskSha };
  if (!taken) return { ...head, ...state, next_actions: next };
  const { attempt_id, previous_disk_sha256, journal_resolved } = taken;
  return { ...head, attempt_id, ...state, previous_disk_sha256, journal_resolved, next_actions: next };
}
