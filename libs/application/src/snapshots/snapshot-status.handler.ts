import type { InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import { snapshotStreamId } from '@palimpsest/core/snapshot/snapshot.events';
import type { SnapshotHandle } from '@palimpsest/core/snapshot/snapshot-root';
import { recentSnapshots, recordedSnapshot } from '@palimpsest/projections/workspace-snapshots/workspace-snapshot.queries';
import type { AppContext } from '../app-context';
import { noWorkspace } from '../file-tools/file-tool-answers';
import { readDisk } from './capture-snapshot';
import { diskStateOf, type DiskState } from './disk-state';

export const STATUS_DEFAULT_SNAPSHOTS = 20;

export interface SnapshotStatusInput {
  limit?: number | null;
}

export interface SnapshotStatusAnswer {
  status: 'ok';
  state: 'unchanged' | 'changed' | 'no_snapshot';
  latest: SnapshotHandle;
  latest_recorded: boolean;
  disk: DiskState | null;
  snapshots: { id: string; log_sequence: number; captured_at: string; files: number; total_bytes: number }[];
  total: number;
  root: string;
}

/**
 * palimpsest_snapshot_status (workspace/status): the files on disk against the newest snapshot of this
 * root (unchanged, changed with the paths, or no_snapshot), the handle the disk would be opened as, and
 * the recorded snapshots, newest first. It reads and hashes the files and records nothing.
 */
export async function snapshotStatus(ctx: AppContext, input: SnapshotStatusInput): Promise<SnapshotStatusAnswer | InvalidArgument> {
  const root = ctx.workspace;
  if (!root) return noWorkspace(OP.palimpsest_snapshot_status);
  const disk = await readDisk(ctx, root);
  if (!disk.ok) return disk.answer;
  const { snapshots, total } = await recentSnapshots(ctx.db, root, input.limit ?? STATUS_DEFAULT_SNAPSHOTS);
  const newest = snapshots[0] ? await recordedSnapshot(ctx.db, snapshotStreamId(snapshots[0].snapshot as SnapshotHandle, root)) : null;
  const state = newest ? diskStateOf(newest.data.files, disk.capture.files) : null;
  const latestRecorded = snapshots.some((s) => s.snapshot === disk.capture.handle) || (await recordedSnapshot(ctx.db, disk.capture.streamId)) !== null;
  return {
    status: 'ok',
    state: state ? state.state : 'no_snapshot',
    latest: disk.capture.handle,
    latest_recorded: latestRecorded,
    disk: state,
    snapshots: snapshots.map((s) => ({ id: s.snapshot, log_sequence: s.position, captured_at: s.captured_at, files: s.files, total_bytes: s.total_bytes })),
    total,
    root: root.path,
  };
}
