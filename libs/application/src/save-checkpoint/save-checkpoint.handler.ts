import { exportTarget } from '@palimpsest/core/reads/export-target';
import { decide } from '@palimpsest/core/target/target.decider';
import type { AppContext } from '../app-context';
import { refusalAnswer } from '../shared/target-refusals';
import { commitOf } from '../shared/commit-events';
import { handleCommand, targetUnitOfWork } from '../shared/handle-command';
import { targetIdOf, notFound } from '../shared/target-lookup';
import { lockTargetRow, type TargetRow } from '@palimpsest/projections/content/target-row.queries';

export interface SaveCheckpointInput {
  target_file_id: unknown;
  expected_target_version?: unknown;
  expected_current_hash?: unknown;
  export_after_save?: boolean;
}

interface SavedCheckpoint {
  status: 'saved';
  target_file_id: string;
  snapshot_id: string;
  closed_editing_cycle_id: string;
  new_editing_cycle_id: string;
  current_hash: string;
  version: number;
  export?: { format: string; content: string; content_sha256: string };
}

/** Snapshot the current target and rotate its editing cycle; the text is not touched. */
export async function saveCheckpoint(ctx: AppContext, input: SaveCheckpointInput) {
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
      return saved(target, input, { snapshotId, newCycleId });
    },
  });
}

function saved(target: TargetRow, input: SaveCheckpointInput, ids: { snapshotId: string; newCycleId: string }): SavedCheckpoint {
  const result: SavedCheckpoint = {
    status: 'saved',
    target_file_id: target.target_id,
    snapshot_id: ids.snapshotId,
    closed_editing_cycle_id: target.active_editing_cycle_id,
    new_editing_cycle_id: ids.newCycleId,
    current_hash: target.current_hash,
    version: target.version,
  };
  if (input.export_after_save) {
    const exported = exportTarget(target.content, {}, { source_line_endings: target.source_line_endings });
    if (exported.ok) result.export = { format: exported.value.format, content: exported.value.content, content_sha256: exported.value.content_sha256 };
  }
  return result;
}
