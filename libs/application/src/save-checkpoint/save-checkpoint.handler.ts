import type { AppContext } from '../app-context';
import { refusalAnswer } from '../shared/target-refusals';
import { commitDecided, runTargetCommand } from '../shared/target-pipeline/target-pipeline';
import { targetIdOf, notFound } from '../shared/target-lookup';
import { workspaceFileOf } from '@palimpsest/projections/workspace-files.queries';
import { savedAnswer, type SaveCheckpointInput } from './saved-answer';
import { checkpointDecision, saveToWorkspace, syncRequested } from './save-to-workspace';

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
  const answer = (a: ReturnType<typeof notFound> | ReturnType<typeof refusalAnswer> | ReturnType<typeof savedAnswer>) => ({ kind: 'answer' as const, answer: a });
  return runTargetCommand(ctx, {
    targetId,
    locked: async (target, unit) => {
      if (!target) return answer(notFound(targetId));
      const outcome = checkpointDecision(ctx, target, input, { snapshotId, newCycleId }, now);
      if (outcome.kind === 'refused') return answer(refusalAnswer(outcome.refusal));
      await commitDecided(unit, target, outcome, now, { command: 'SaveCheckpoint' });
      return answer(savedAnswer(target, input, { snapshotId, newCycleId }));
    },
  });
}
