import type { WorkspaceFileBoundData, WorkspaceFileRefreshedData, WorkspacePublishSetData } from '@palimpsest/core/target/target.events';
import { sql, type SqlFragment } from '@palimpsest/store/sql-fragment';

/**
 * The workspace_files row of a WorkspaceFileBound event: which file a target was imported from; its bytes
 * are the first baseline, and they hold the text of the version the target had when it was bound.
 */
export function insertWorkspaceFileSql(d: WorkspaceFileBoundData, position: SqlFragment, version: number): SqlFragment {
  return sql`INSERT INTO workspace_files (target_id, path, root_dev, root_ino, file_dev, file_ino, source_sha256,
      source_line_ending_style, log_sequence, bound_at, disk_sha256, disk_log_sequence, disk_version)
    VALUES (${d.target_id}, ${d.path}, ${d.root_dev}, ${d.root_ino}, ${d.file_dev},
      ${d.file_ino}, ${d.source_sha256}, ${d.source_line_ending_style}, ${position}, ${d.bound_at},
      ${d.source_sha256}, ${position}, ${version})`;
}

/** A WorkspacePublishSet event: when accepted direct submissions reach the file from now on. */
export function setWorkspacePublishSql(d: WorkspacePublishSetData): SqlFragment {
  return sql`UPDATE workspace_files SET publish = ${d.publish} WHERE target_id = ${d.target_id}::uuid`;
}

/**
 * A WorkspaceFileRefreshed event: the file's new baseline, moving only forward in log order (publication
 * journals move it too, and a rebuild replays their streams after the targets'). The journal columns are
 * the journal's to close (PublicationResolved).
 */
export function refreshWorkspaceFileSql(d: WorkspaceFileRefreshedData, position: SqlFragment, version: number): SqlFragment {
  return sql`UPDATE workspace_files SET disk_sha256 = ${d.disk_sha256}, disk_log_sequence = ${position}, disk_version = ${version}
    WHERE target_id = ${d.target_id}::uuid AND disk_log_sequence < ${position}`;
}
