import type { SnapshotFile } from './snapshot-root';

/** How a path of a snapshot differs on disk now: its bytes changed, it is gone, or it is new. */
export type DiskChange = 'modified' | 'deleted' | 'added';

export interface ChangedPath {
  path: string;
  change: DiskChange;
}

/**
 * The paths whose bytes differ between a snapshot's files and the files on disk now, in path order
 * (code units): modified (both hold it, digests differ), deleted (only the snapshot), added (only the disk).
 */
export function changedPaths(captured: readonly SnapshotFile[], disk: readonly SnapshotFile[]): ChangedPath[] {
  const now = new Map(disk.map((f) => [f.path, f.sha256]));
  const changed: ChangedPath[] = [];
  const seen = new Set<string>();
  for (const f of captured) {
    seen.add(f.path);
    const digest = now.get(f.path);
    if (digest === undefined) changed.push({ path: f.path, change: 'deleted' });
    else if (digest !== f.sha256) changed.push({ path: f.path, change: 'modified' });
  }
  for (const f of disk) if (!seen.has(f.path)) changed.push({ path: f.path, change: 'added' });
  return changed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
