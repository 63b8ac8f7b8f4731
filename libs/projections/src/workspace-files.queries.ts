import type { WorkspaceFileBoundData } from '@palimpsest/core/target/target.events';
import type { Sql } from '@palimpsest/store/db';

/** The workspace file a target is bound to, as get_target shows it. */
export type WorkspaceBinding = Omit<WorkspaceFileBoundData, 'target_id' | 'bound_at'>;

/** The binding of a target imported from the workspace, or null (created from content, or unknown). */
export async function workspaceBindingOf(sql: Sql, targetId: string): Promise<WorkspaceBinding | null> {
  const { rows } = await sql.query(
    `SELECT path, root_dev, root_ino, file_dev, file_ino, source_sha256, source_line_ending_style
       FROM workspace_files WHERE target_id = $1`,
    [targetId],
  );
  return (rows[0] as WorkspaceBinding | undefined) ?? null;
}
