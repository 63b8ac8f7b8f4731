import type { CheckpointSavedData, TargetInitializedData } from '@palimpsest/core/target/target.events';
import { sql, type SqlFragment } from '@palimpsest/store/sql-fragment';

export function insertInitialSnapshotSql(d: TargetInitializedData, position: SqlFragment, at: string): SqlFragment {
  return sql`INSERT INTO target_snapshots (snapshot_id, target_id, snapshot_reason, version, current_hash,
      closed_editing_cycle_id, new_editing_cycle_id, log_sequence, created_at)
    VALUES (${d.snapshot_id}, ${d.target_id}, 'initial', 0, ${d.current_hash}, NULL,
      ${d.editing_cycle_id}, ${position}, ${at})`;
}

export function insertCheckpointSnapshotSql(d: CheckpointSavedData, position: SqlFragment, at: string): SqlFragment {
  return sql`INSERT INTO target_snapshots (snapshot_id, target_id, snapshot_reason, version, current_hash,
      closed_editing_cycle_id, new_editing_cycle_id, log_sequence, created_at)
    VALUES (${d.snapshot_id}, ${d.target_id}, 'save_checkpoint', ${d.version},
      ${d.current_hash}, ${d.closed_editing_cycle_id}, ${d.new_editing_cycle_id},
      ${position}, ${at})`;
}
