import { handleDigest, type SnapshotFile, type SnapshotHandle } from './snapshot-root';

/**
 * The snapshot stream's one event (`snapshot-<digest>-<root dev>-<root ino>`): a capture of the files
 * under one workspace root. The stream id is derived from the handle, so a second capture of the same
 * content finds the first (its append at version 0 is refused) and every handle is recorded once, at the
 * log position of its first capture: the snapshot's position, which as-of reads are made at.
 */

export const SNAPSHOT_EVENT_SCHEMA_VERSION = 1;
export const SNAPSHOT_CAPTURED = 'WorkspaceSnapshotCaptured';
export const SNAPSHOT_STREAM_PREFIX = 'snapshot-';

export interface RootRecord {
  path: string;
  dev: string;
  ino: string;
}

/** One file of a snapshot: its digest and size, and the target version its bytes were, when it was bound and in step. */
export interface SnapshotFileRecord extends SnapshotFile {
  bytes: number;
  /** The target the file was bound to when its bytes were that target's `version` (else null: read from disk while unchanged). */
  target_file_id: string | null;
  version: number | null;
}

export interface WorkspaceSnapshotCapturedData {
  snapshot: SnapshotHandle;
  root: RootRecord;
  /** In path order (UTF-8 bytes), as the handle's leaves. */
  files: SnapshotFileRecord[];
  total_bytes: number;
  captured_at: string;
}

export const snapshotStreamId = (handle: SnapshotHandle, root: { dev: string; ino: string }): string =>
  `${SNAPSHOT_STREAM_PREFIX}${handleDigest(handle)}-${root.dev}-${root.ino}`;
