import { decide } from '@palimpsest/core/target/target.decider';
import type { AppContext } from '../app-context';
import { refusalAnswer } from '../shared/target-refusals';
import { commitOf } from '../shared/commit-events';
import { handleCommand, targetUnitOfWork } from '../shared/handle-command';
import { targetIdOf, notFound } from '../shared/target-lookup';
import { lockTargetRow } from '@palimpsest/projections/content/target-row.queries';
import { workspaceFileOf } from '@palimpsest/projections/workspace-files.queries';
import { savedAnswer, type SaveCheckpointInput } from './saved-answer';
import { saveToWorkspace, syncRequested } from './save-to-workspace';

/**
 * sync_workspace: true and false decide; omitted or null publish a target whose binding waits for saves
 * (publish on_save), and otherwise follow PALIMPSEST_WORKSPACE_SYNC_ON_SAVE.
 */
async function publishes(ctx: AppContext, input: SaveCheckpointInput): Promise<boolean> {
  if (syncRequested(input.sync_workspace, ctx.syncOnSave)) return true;
  if (typeof input.sync_workspace === 'boolean') return false;
  const { id, error } = targetIdOf(input.target_file_id);
  return !error && (await workspaceFileOf(ctx.db, id))?.publish === 'on_save';
}

/** Snapshot the current target and rotate its editing cycle; the text is not touched. With sync_workspace, also publish it to its file. */
export async function saveCheckpoint(ctx: AppContext, input: SaveCheckpointInput) {
  if (await publishes(ctx, input)) return saveToWorkspace(ctx, input);
  const { id: targetId, error } = targetIdOf(input.target_file_id);
  if (error) return error;
  const now = ctx.clock.now();
  const snapshotId = ctx.ids.next();
  const newCycleId = ctx.ids.next();
  return handleCommand({
    unitOfWork: targetUnitOfWork(ctx),
    load: ({ tx }) => lockTargetRow(tx, targetId, ctx.contents),
    decide: (target) =>
      target &&
      decide(
        {
          type: 'SaveCheckpoint',
          now,
          target_id: targetId,
          snapshot_id: snapshotId,
          new_editing_cycle_id: newCycleId,
          expected_target_version: input.expected_target_version,
          expected_current_hash: input.expected_current_hash,
        },
        target,
      ),
    commit: async (target, outcome, { commit }) => {
      if (!target || !outcome) return notFound(targetId);
      if (outcome.kind === 'refused') return refusalAnswer(outcome.refusal);
      await commit(commitOf(target, outcome, now, { command: 'SaveCheckpoint' }));
      return savedAnswer(target, input, { snapshotId, newCycleId });
    },
  });
}
