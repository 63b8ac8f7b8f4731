import type { InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { SNAPSHOT_CAPTURED, SNAPSHOT_EVENT_SCHEMA_VERSION, snapshotStreamId, type SnapshotFileRecord, type WorkspaceSnapshotCapturedData } from '@palimpsest/core/snapshot/snapshot.events';
import { inPathOrder, snapshotRoot, type SnapshotHandle } from '@palimpsest/core/snapshot/snapshot-root';
import { bindingsUnder, logHead, recordedSnapshot, type PathBinding, type RecordedSnapshot } from '@palimpsest/projections/workspace-snapshots/workspace-snapshot.queries';
import { StreamVersionConflictError } from '@palimpsest/store/errors';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import type { AppContext } from '../app-context';
import { diskFiles, type DiskFile } from './disk-files';

/** The files on disk now, each with the target version it holds when it is bound and in step with it, and their handle. */
export interface DiskCapture {
  handle: SnapshotHandle;
  files: SnapshotFileRecord[];
  streamId: string;
}

function recordOf(file: DiskFile, binding: PathBinding | undefined): SnapshotFileRecord {
  // A bound file holds its target's disk_version exactly when its bytes are the ones recorded for it.
  const inStep = binding !== undefined && binding.disk_sha256 === file.sha256;
  return { path: file.path, sha256: file.sha256, bytes: file.bytes, target_file_id: inStep ? binding.target_id : null, version: inStep ? binding.disk_version : null };
}

/** Reads and hashes the files under the root and finds their bindings; records nothing. */
export async function readDisk(ctx: AppContext, root: WorkspaceRoot): Promise<{ ok: true; capture: DiskCapture } | { ok: false; answer: InvalidArgument }> {
  const disk = await diskFiles(root);
  if (!disk.ok) return disk;
  const bindings = await bindingsUnder(ctx.db, root);
  const files = inPathOrder(disk.files).map((f) => recordOf(f, bindings.get(f.path)));
  const handle = snapshotRoot(files);
  return { ok: true, capture: { handle, files, streamId: snapshotStreamId(handle, root) } };
}

export interface Captured {
  snapshot: RecordedSnapshot;
  /** True when this call recorded it; false when that content under this root already was a snapshot, or when it is held. */
  recorded: boolean;
  /** True when a read-only session captured content no snapshot recorded: this process holds it (HeldSnapshots), the log does not. */
  held: boolean;
}

/** How a capture of `latest` is kept: a read-only session writes nothing to the log. */
export interface CaptureMode {
  readOnly: boolean;
  correlationId?: string | undefined;
}

/** The capture of `latest` as a snapshot: recorded (once per content), or held in memory for a read-only session. */
export async function captureLatest(ctx: AppContext, root: WorkspaceRoot, capture: DiskCapture, mode: CaptureMode): Promise<Captured> {
  const known = await recordedSnapshot(ctx.db, capture.streamId);
  if (known) return { snapshot: known, recorded: false, held: false };
  if (!mode.readOnly) return recordCapture(ctx, root, capture, mode.correlationId);
  const held = ctx.heldSnapshots.get(capture.streamId);
  const snapshot = held ?? ctx.heldSnapshots.hold(capture.streamId, { data: captureData(ctx, root, capture), position: await logHead(ctx.db) });
  return { snapshot, recorded: false, held: true };
}

/**
 * Records a capture as WorkspaceSnapshotCaptured, once per handle and root: the stream is named by the
 * handle, so a racing capture of the same content whose append won is answered as the snapshot recorded
 * first, at its position.
 */
async function recordCapture(ctx: AppContext, root: WorkspaceRoot, capture: DiskCapture, correlationId?: string): Promise<Captured> {
  const data = captureData(ctx, root, capture);
  const metadata = correlationId ? { correlation_id: correlationId } : {};
  try {
    const appended = await ctx.store.append(capture.streamId, 0, [{ type: SNAPSHOT_CAPTURED, schemaVersion: SNAPSHOT_EVENT_SCHEMA_VERSION, data, metadata, recordedAt: data.captured_at }]);
    return { snapshot: { data, position: appended.positions[0]! }, recorded: true, held: false };
  } catch (error) {
    if (!(error instanceof StreamVersionConflictError)) throw error;
    const raced = await recordedSnapshot(ctx.db, capture.streamId);
    if (!raced) throw error;
    return { snapshot: raced, recorded: false, held: false };
  }
}

function captureData(ctx: AppContext, root: WorkspaceRoot, capture: DiskCapture): WorkspaceSnapshotCapturedData {
  return {
    snapshot: capture.handle,
    root: { path: root.path, dev: root.dev, ino: root.ino },
    files: capture.files,
    total_bytes: capture.files.reduce((sum, f) => sum + f.bytes, 0),
    captured_at: ctx.clock.now(),
  };
}
