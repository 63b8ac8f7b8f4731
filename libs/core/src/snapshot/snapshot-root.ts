import { SHA256_HEX } from '../text/sha256';
import { leafHash, rootOf } from '../audit/merkle-log';

/**
 * A workspace snapshot's handle: the Merkle root (RFC 9162's tree, merkle-log.ts) over its files, one
 * leaf per file in path order. A leaf is SHA-256(0x00 ‖ len(path) ‖ path ‖ sha256(bytes)): the path's
 * UTF-8 length as 4 bytes big-endian, its UTF-8 bytes, then the file's 32-byte digest, so no two
 * (path, digest) lists share their leaves. Paths are ordered by their UTF-8 bytes, so the handle depends
 * on the content alone, never on the order a walk found the files in. `sha256:` and lowercase hex.
 */

export interface SnapshotFile {
  /** Relative to the workspace root, components joined by `/`. */
  path: string;
  /** Lowercase hex SHA-256 of the file's bytes. */
  sha256: string;
}

export const SNAPSHOT_HANDLE = /^sha256:[0-9a-f]{64}$/;
export const LATEST = 'latest';

export type SnapshotHandle = `sha256:${string}`;

export const isSnapshotHandle = (value: unknown): value is SnapshotHandle => typeof value === 'string' && SNAPSHOT_HANDLE.test(value);

/** The 64 hex digits of a handle. */
export const handleDigest = (handle: SnapshotHandle): string => handle.slice('sha256:'.length);

/** Files ordered by their paths' UTF-8 bytes (the order the leaves take). */
export function inPathOrder<F extends SnapshotFile>(files: readonly F[]): F[] {
  return [...files].sort((a, b) => Buffer.compare(Buffer.from(a.path, 'utf8'), Buffer.from(b.path, 'utf8')));
}

function leafOf(file: SnapshotFile): Buffer {
  if (!SHA256_HEX.test(file.sha256)) throw new Error(`snapshot: ${JSON.stringify(file.path)} has no lowercase SHA-256 digest`);
  const path = Buffer.from(file.path, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(path.length);
  return leafHash(Buffer.concat([length, path, Buffer.from(file.sha256, 'hex')]));
}

/** The handle of a set of files; two entries with one path are a caller's bug (a walk yields each path once). */
export function snapshotRoot(files: readonly SnapshotFile[]): SnapshotHandle {
  const ordered = inPathOrder(files);
  for (let i = 1; i < ordered.length; i++) {
    if (ordered[i]!.path === ordered[i - 1]!.path) throw new Error(`snapshot: ${JSON.stringify(ordered[i]!.path)} is listed twice`);
  }
  return `sha256:${rootOf(ordered.map(leafOf)).toString('hex')}`;
}
