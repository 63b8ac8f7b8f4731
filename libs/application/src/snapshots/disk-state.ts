import { changedPaths } from '@palimpsest/core/snapshot/snapshot-diff';
import { snapshotRoot, type SnapshotFile, type SnapshotHandle } from '@palimpsest/core/snapshot/snapshot-root';
import { SNAPSHOT_LIMITS } from '@palimpsest/protocol/catalog/operations/snapshots.operations';

/** `snapshot.disk`: whether the files on disk still are a snapshot's, the paths that changed since, and the handle of the disk now. */
export interface DiskState {
  state: 'unchanged' | 'changed';
  changed_paths: { path: string; change: 'modified' | 'deleted' | 'added' }[];
  changed_total: number;
  latest: SnapshotHandle;
}

export function diskStateOf(captured: readonly SnapshotFile[], disk: readonly SnapshotFile[]): DiskState {
  const changed = changedPaths(captured, disk);
  return {
    state: changed.length === 0 ? 'unchanged' : 'changed',
    changed_paths: changed.slice(0, SNAPSHOT_LIMITS.MAX_CHANGED_PATHS),
    changed_total: changed.length,
    latest: snapshotRoot(disk),
  };
}
