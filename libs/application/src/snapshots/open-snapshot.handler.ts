import type { InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { AppContext } from '../app-context';
import { noWorkspace } from '../file-tools/file-tool-answers';
import { captureLatest, readDisk, type CaptureMode } from './capture-snapshot';
import { diskStateOf, type DiskState } from './disk-state';
import { findSnapshot, isLatest, snapshotSummary, type SnapshotUnknown } from './snapshot-lookup';

export interface OpenSnapshotInput {
  snapshot?: string | null;
}

export interface OpenSnapshotAnswer {
  status: 'ok';
  snapshot: ReturnType<typeof snapshotSummary> & { disk: DiskState };
  recorded: boolean;
  /** A read-only session's capture of content no snapshot recorded: this process holds it until it restarts; the log does not. */
  held: boolean;
  root: string;
}

/**
 * palimpsest_open_snapshot (workspace/open): `latest` reads and hashes every file under the root and
 * records the capture, once per content (the same files answer the same handle, recorded: false), or in
 * a read-only session holds it in this process (held: true); a handle reopens that snapshot. Either way
 * the answer says how the disk differs from it now.
 */
export async function openSnapshot(ctx: AppContext, input: OpenSnapshotInput, mode: CaptureMode): Promise<OpenSnapshotAnswer | InvalidArgument | SnapshotUnknown> {
  const root = ctx.workspace;
  if (!root) return noWorkspace(OP.palimpsest_open_snapshot);
  const named = isLatest(input.snapshot) ? null : await findSnapshot(ctx, root, input.snapshot!);
  if (named && !named.ok) return named.answer;
  const disk = await readDisk(ctx, root);
  if (!disk.ok) return disk.answer;
  const opened = named ? { snapshot: named.snapshot, recorded: false, held: named.held } : await captureLatest(ctx, root, disk.capture, mode);
  const state = diskStateOf(opened.snapshot.data.files, disk.capture.files);
  return { status: 'ok', snapshot: { ...snapshotSummary(opened.snapshot), disk: state }, recorded: opened.recorded, held: opened.held, root: root.path };
}
