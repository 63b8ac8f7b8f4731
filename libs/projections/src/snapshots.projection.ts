import type { CheckpointSavedData, TargetInitializedData } from '@palimpsest/core/target/target.events';
import type { SqlParams } from './sql-params';

export function insertInitialSnapshotSql(p: SqlParams, d: TargetInitializedData, position: string, at: string) {
  return `INSERT INTO target_snapshots (snapshot_id, target_id, snapshot_reason, version, current_hash,
      closed_editing_cycle_id, new_editing_cycle_id, log_sequence, created_at)
    VALUES (${p.add(d.snapshot_id)}, ${p.add(d.target_id)}, 'initial', 0, ${p.add(d.current_hash)}, NULL,
      ${p.add(d.editing_cycle_id)}, ${position}, ${p.add(at)})`;
}

export function insertCheckpointSnapshotSql(p: SqlParams, d: CheckpointSavedData, position: string, at: string) {
  return `INSERT INTO target_snapshots (snapshot_id, target_id, snapshot_reason, version, current_hash,
      closed_editing_cycle_id, new_editing_cycle_id, log_sequence, created_at)
    VALUES (${p.add(d.snapshot_id)}, ${p.add(d.target_id)}, 'save_checkpoint', ${p.add(d.version)},
      ${p.add(d.current_hash)}, ${p.add(d.closed_editing_cycle_id)}, ${p.add(d.new_editing_cycle_id)},
      ${position}, ${p.add(at)})`;
}
