import { sha256Hex } from '@palimpsest/core/text/sha256';
import type { SnapshotFileRecord } from '@palimpsest/core/snapshot/snapshot.events';
import { workspaceFileOf } from '@palimpsest/projections/workspace-files.queries';
import { importOfBytes } from '@palimpsest/projections/workspace-snapshots/workspace-snapshot.queries';
import { readWorkspaceFileBounded } from '@palimpsest/workspace/workspace-file-reader';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import type { AppContext } from '../app-context';
import { targetAsOf, type AsOfAnswer } from '../history/as-of/text-as-of';
import { fileBytesOf } from '../workspace-publication/file-bytes';

export interface SnapshotBytes {
  bytes: Buffer;
  source: 'log' | 'disk';
  /** For bytes from the log: the version read, as an as_of read answers it. */
  as_of: AsOfAnswer | null;
}


/** A target's text at a version, in the bytes of the file it is bound to (its line endings), when they are the digest's. */
async function fromLog(ctx: AppContext, file: SnapshotFileRecord, targetId: string, version: number): Promise<SnapshotBytes | null> {
  const found = await targetAsOf(ctx, targetId, { version });
  if (found.kind !== 'as_of') return null;
  const binding = await workspaceFileOf(ctx.db, targetId);
  const { bytes } = fileBytesOf(found.value.row.content, found.value.row.source_line_endings, binding?.source_line_ending_style ?? null);
  return sha256Hex(bytes) === file.sha256 ? { bytes, source: 'log', as_of: found.value.as_of } : null;
}

/** An unbound file's bytes, while the disk still holds exactly those. */
async function fromDisk(root: WorkspaceRoot, file: SnapshotFileRecord): Promise<SnapshotBytes | null> {
  const read = await readWorkspaceFileBounded(root, file.path, Number.MAX_SAFE_INTEGER);
  if (read.kind !== 'read') return null;
  return sha256Hex(read.bytes) === file.sha256 ? { bytes: read.bytes, source: 'disk', as_of: null } : null;
}

/**
 * The bytes a file held in a snapshot: from the log when it was bound (what an as_of read of its target at
 * that version answers), or when it was bound later from exactly those bytes (its import, version 0), else
 * from the disk while it is unchanged; null when none holds them (an unbound file changed before anything
 * recorded it).
 */
export async function snapshotBytes(ctx: AppContext, root: WorkspaceRoot, file: SnapshotFileRecord): Promise<SnapshotBytes | null> {
  if (file.target_file_id !== null && file.version !== null) {
    const bound = await fromLog(ctx, file, file.target_file_id, file.version);
    if (bound) return bound;
  }
  const imported = await importOfBytes(ctx.db, root, file.path, file.sha256);
  return (imported ? await fromLog(ctx, file, imported, 0) : null) ?? (await fromDisk(root, file));
}
