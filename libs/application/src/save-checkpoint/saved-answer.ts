import { exportTarget } from '@palimpsest/core/reads/export-target';
import type { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { Success } from '@palimpsest/protocol/catalog/operation-types';
import type { Refusal } from '@palimpsest/protocol/refusal';
import type { TargetRow } from '@palimpsest/projections/content/target-row.queries';

export interface SaveCheckpointInput {
  target_file_id: unknown;
  expected_target_version?: unknown;
  expected_current_hash?: unknown;
  export_after_save?: boolean;
  sync_workspace?: boolean | null;
  workspace_eol_format?: unknown;
}

/** What a save answers, with or without a publication. */
export type SaveAnswer = SavedCheckpoint | Refusal<'rejected' | 'partial' | 'not_found' | 'invalid_argument'>;

type SavedCheckpoint = Success<OP.palimpsest_save> & {
  export?: { format: string; content: string; content_sha256: string };
};

/** The seed's saved answer, from the target row the checkpoint was taken of. */
export function savedAnswer(target: TargetRow, input: SaveCheckpointInput, ids: { snapshotId: string; newCycleId: string }): SavedCheckpoint {
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
