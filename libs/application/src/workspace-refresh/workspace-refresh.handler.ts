import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { TargetRefusal } from '@palimpsest/core/target/target-decision';
import { workspaceFileOf, type WorkspaceFileRow } from '@palimpsest/projections/workspace-files.queries';
import type { AppContext } from '../app-context';
import type { Refusal } from '@palimpsest/protocol/refusal';
import type { NextAction } from '@palimpsest/core/errors/error-model';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { Success } from '@palimpsest/protocol/catalog/operation-types';
import { notFound, targetIdOf, type NotFound } from '../shared/target-lookup';
import { refusalAnswer, type UnrecordedRejection } from '../shared/target-refusals';
import { workspaceNotConfigured } from '../shared/workspace-not-configured';
import { settleBeforeIntake } from '../workspace-publication/settle-before-intake';
import { takeInDiskChange, type RefreshRefusal } from './take-in-disk-change';

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

/** Every answer of a refresh but its success. */
export type RefreshRefusalAnswer = InvalidArgument | NotFound | FileRefusal | UnrecordedRejection;
export type RefreshAnswer = Refreshed | RefreshRefusalAnswer;

const notConfigured = () =>
  workspaceNotConfigured('A refresh reads the bound file under the workspace root', {
    argument: 'target_file_id',
  });

/**
 * palimpsest_workspace_refresh: the bound file's bytes taken in under the target's row lock when they are
 * no longer its baseline (take-in-disk-change.ts), answered. What a killed publication installed without
 * a recorded journal is put back first (settle-before-intake.ts), as the file tools do: never taken in.
 */
export async function refreshWorkspaceFile(ctx: AppContext, input: WorkspaceRefreshInput): Promise<RefreshAnswer> {
  const { id: targetId, error } = targetIdOf(input.target_file_id);
  if (error) return error;
  const root = ctx.workspace;
  if (!root) return notConfigured();
  const bound = await workspaceFileOf(ctx.db, targetId);
  if (bound && bound.journal_state === null) await settleBeforeIntake(ctx, bound);
  const r = await takeInDiskChange(ctx, root, targetId, { expected_target_version: input.expected_target_version ?? null, expected_current_hash: input.expected_current_hash ?? null });
  switch (r.kind) {
    case 'in_sync':
      return answer('in_sync', r.target, r.file, r.diskSha);
    case 'refreshed':
      return answer('refreshed', r.target, r.file, r.diskSha, { attempt_id: r.attemptId, previous_disk_sha256: r.file.disk_sha256, journal_resolved: r.journalResolved });
    case 'refused':
      return refreshRefusalAnswer(r.refusal);
  }
}

/** Why the bound file's bytes were not taken in, as the refresh answers it (the file tools answer it too). */
export function refreshRefusalAnswer(r: RefreshRefusal): RefreshRefusalAnswer {
  switch (r.kind) {
    case 'target_not_found':
      return notFound(r.targetId);
    case 'not_bound':
      return invalidArgument('target_not_bound_to_workspace', `Target ${r.targetId} was not imported from a workspace file: there is nothing to refresh from.`, {
        argument: 'target_file_id',
      });
    case 'root_mismatch':
      return invalidArgument('workspace_root_mismatch', `Target ${r.targetId} is bound to another workspace root than the one configured.`, {
        argument: 'target_file_id',
        bound_root: { dev: r.file.root_dev, ino: r.file.root_ino },
        configured_root: { path: r.root.path, dev: r.root.dev, ino: r.root.ino },
      });
    case 'unreadable':
      return { ...r.answer, argument: 'target_file_id', path: r.path };
    case 'target':
      return refused(r.refusal);
  }
}

/** The usual refusal; a stale guard's next action is a re-read, then this refresh with the new guard. */
function refused(refusal: TargetRefusal): RefreshRefusalAnswer {
  const answer = refusalAnswer(refusal);
  if (refusal.kind !== 'guard_stale') return answer;
  const reason = `The target moved to version ${refusal.current_version}: re-read it, then refresh with the new guard.`;
  return { ...answer, next_actions: [{ operation: OP.palimpsest_get_target, reason, params: { target_file_id: refusal.target_id } }] };
}

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
