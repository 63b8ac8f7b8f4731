import { isSnapshotHandle } from '@palimpsest/core/snapshot/snapshot-root';
import { snapshotStreamId } from '@palimpsest/core/snapshot/snapshot.events';
import { recordedSnapshot } from '@palimpsest/projections/workspace-snapshots/workspace-snapshot.queries';
import type { AppContext } from '../app-context';

/**
 * The files of a recorded snapshot of this process's workspace root: path → lowercase hex SHA-256 of its
 * bytes, in path order (UTF-8 bytes). Null when there is no workspace root, the value is not a handle, or
 * no capture under the root recorded that handle. For code that keys what it derives by file content (a
 * code graph): the same digest is the same bytes, in any snapshot.
 */
export async function snapshotFiles(ctx: AppContext, handle: string): Promise<Map<string, string> | null> {
  if (!ctx.workspace || !isSnapshotHandle(handle)) return null;
  const found = await recordedSnapshot(ctx.db, snapshotStreamId(handle, ctx.workspace));
  return found ? new Map(found.data.files.map((f) => [f.path, f.sha256])) : null;
}
