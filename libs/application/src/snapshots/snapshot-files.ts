import { isSnapshotHandle } from '@palimpsest/core/snapshot/snapshot-root';
import type { AppContext } from '../app-context';
import { snapshotNamed } from './snapshot-lookup';

/**
 * The files of a snapshot of this process's workspace root: path → lowercase hex SHA-256 of its
 * bytes, in path order (UTF-8 bytes). Null when there is no workspace root, the value is not a handle, or
 * no capture under the root recorded that handle. For code that keys what it derives by file content (a
 * code graph): the same digest is the same bytes, in any snapshot.
 */
export async function snapshotFiles(ctx: AppContext, handle: string): Promise<Map<string, string> | null> {
  if (!ctx.workspace || !isSnapshotHandle(handle)) return null;
  const found = await snapshotNamed(ctx, ctx.workspace, handle);
  return found ? new Map(found.snapshot.data.files.map((f) => [f.path, f.sha256])) : null;
}
