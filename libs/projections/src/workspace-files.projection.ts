import type { WorkspaceFileBoundData, WorkspaceFileRefreshedData, WorkspacePublishSetData } from '@palimpsest/core/target/target.events';
import type { SqlParams } from './sql-params';

/**
 * The workspace_files row of a WorkspaceFileBound event: which file a target was imported from; its bytes
 * are the first baseline, and they hold the text of the version the target had when it was bound.
 */
export function insertWorkspaceFileSql(p: SqlParams, d: WorkspaceFileBoundData, position: string, version: number) {
  return `INSERT INTO workspace_files (target_id, path, root_dev, root_ino, file_dev, file_ino, source_sha256,
      source_line_ending_style, log_sequence, bound_at, disk_sha256, disk_log_sequence, disk_version)
    VALUES (${p.add(d.target_id)}, ${p.add(d.path)}, ${p.add(d.root_dev)}, ${p.add(d.root_ino)}, ${p.add(d.file_dev)},
      ${p.add(d.file_ino)}, ${p.add(d.source_sha256)}, ${p.add(d.source_line_ending_style)}, ${position}, ${p.add(d.bound_at)},
      ${p.add(d.source_sha256)}, ${position}, ${p.add(version)})`;
}

/** A WorkspacePublishSet event: when accepted direct submissions reach the file from now on. */
export function setWorkspacePublishSql(p: SqlParams, d: WorkspacePublishSetData) {
  return `UPDATE workspace_files SET publish = ${p.add(d.publish)} WHERE target_id = ${p.add(d.target_id)}::uuid`;
}

/**
 * A WorkspaceFileRefreshed event: the file's new baseline, moving only forward in log order (publication
 * journals move it too, and a rebuild replays their streams after the targets'). The journal columns are
 * the journal's to close (PublicationResolved).
 */
export function refreshWorkspaceFileSql(p: SqlParams, d: WorkspaceFileRefreshedData, position: string, version: number) {
  return `UPDATE workspace_files SET disk_sha256 = ${p.add(d.disk_sha256)}, disk_log_sequence = ${position}, disk_version = ${p.add(version)}
    WHERE target_id = ${p.add(d.target_id)}::uuid AND disk_log_sequence < ${position}`;
}
