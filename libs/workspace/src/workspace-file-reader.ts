import { createHash } from 'node:crypto';
import { closeSync, fstatSync, read, readFileSync, readSync } from 'node:fs';
import { promisify } from 'node:util';
import { checkWorkspaceAccess } from '@palimpsest/core/workspace/workspace-access';
import type { WorkspacePathRefusal } from '@palimpsest/core/workspace/workspace-path';
import { identityOf, type FileIdentity, type WorkspaceRoot } from './workspace-root';
import { openNode, refusal, walkDirectories } from './workspace-walk';

/**
 * Read a file under the workspace root without following a symbolic link anywhere on its path (the walk
 * itself is workspace-walk.ts, shared with publication's workspace-destination.ts).
 *
 * The path is first checked by the pure rules (libs/core/src/workspace/workspace-path.ts) and the root's
 * reserved set, so nothing Palimpsest keeps is ever opened; the path is then taken in its canonical spelling. The walk then
 * goes one component at a time from the root's open handle: each name is looked up inside the directory
 * handle already held (WorkspaceRoot.handlePath), lstat'd, refused if it is a symlink, opened with
 * O_NOFOLLOW (and O_DIRECTORY for an ancestor), and the opened descriptor's fstat must name the node that
 * was lstat'd (same device and inode). So:
 * - a symlink that is there when we look is refused (PATH_SYMLINK);
 * - a symlink swapped in after the lstat makes O_NOFOLLOW fail (ELOOP → PATH_SYMLINK), and a different
 *   node swapped in fails the identity check (PATH_CHANGED);
 * - an ancestor renamed or replaced after we opened it cannot redirect the walk: the next name is resolved
 *   inside the directory we hold, wherever it now is.
 *
 * Out of reach: a process with the same filesystem privileges can move an opened directory (or the root)
 * elsewhere, and the walk then continues inside it, outside the tree the root's path names; it can also
 * hard-link a file from outside into the workspace (a hard link is the file itself, not a pointer), and
 * change a file's bytes while it is read. The root and the opened directories must stay under the
 * workspace owner's control during IO (seed 003, "Workspace filesystem contract").
 */

export type WorkspaceRead =
  | { kind: 'read'; path: string; bytes: Buffer; identity: FileIdentity }
  | { kind: 'refused'; refusal: WorkspacePathRefusal };

type Refused = { kind: 'refused'; refusal: WorkspacePathRefusal };

/** Open `requested` (a workspace path) under `root` by the non-following walk: its descriptor (the caller closes it), or the refusal. */
function openWorkspaceFile(root: WorkspaceRoot, requested: unknown): { kind: 'opened'; fd: number; path: string; size: number } | Refused {
  const check = checkWorkspaceAccess(requested, { access: 'read', reserved: root.reserved });
  if (check.kind === 'refused') return check;
  const { components, path } = check.value;
  const last = components.length - 1;
  const dir = walkDirectories(root, components.slice(0, last), { createParents: false });
  if (dir.kind === 'refused') return dir;
  try {
    const name = { shown: JSON.stringify(path), component: last };
    const file = openNode(root.handlePath(dir.fd, components[last]), 'file', name);
    if (file.kind === 'absent') {
      return { kind: 'refused', refusal: refusal('PATH_NOT_FOUND', `${name.shown} does not exist under the workspace root.`, last) };
    }
    if (file.kind === 'refused') return file;
    return { kind: 'opened', fd: file.fd, path, size: Number(file.stats.size) };
  } finally {
    closeSync(dir.fd);
  }
}

/** Hand the opened file's descriptor to `use` (closed afterwards), or answer the refusal. */
function withWorkspaceFile<T>(root: WorkspaceRoot, requested: unknown, use: (fd: number, path: string) => T): { kind: 'used'; value: T } | Refused {
  const file = openWorkspaceFile(root, requested);
  if (file.kind === 'refused') return file;
  try {
    return { kind: 'used', value: use(file.fd, file.path) };
  } finally {
    closeSync(file.fd);
  }
}

/** Read `requested` (a workspace path) under `root`: its bytes and the identity of the file they came from, or a refusal. */
export function readWorkspaceFile(root: WorkspaceRoot, requested: unknown): WorkspaceRead {
  const opened = withWorkspaceFile(root, requested, (fd, path) => ({ kind: 'read' as const, path, bytes: readFileSync(fd), identity: identityOf(fstatSync(fd, { bigint: true })) }));
  return opened.kind === 'used' ? opened.value : opened;
}

/**
 * The bytes of an opened file of `size` bytes (its fstat), or null when it holds more than `max`: a file
 * over the cap is never read. At most `size` bytes are read, so a file growing meanwhile stays bounded.
 */
export function readOpenedUpTo(fd: number, size: number, max: number): Buffer | null {
  if (size > max) return null;
  const bytes = Buffer.allocUnsafe(size);
  let filled = 0;
  for (let n = 1; filled < size && n > 0; filled += n) n = readSync(fd, bytes, filled, size - filled, filled);
  return bytes.subarray(0, filled);
}

/** Read `requested` when it holds at most `max` bytes (bytes null when it holds more: stat'd, never read), or a refusal. */
export function readWorkspaceFileUpTo(root: WorkspaceRoot, requested: unknown, max: number): { kind: 'read'; path: string; size: number; bytes: Buffer | null } | { kind: 'refused'; refusal: WorkspacePathRefusal } {
  const opened = withWorkspaceFile(root, requested, (fd, path) => {
    const size = fstatSync(fd).size;
    return { kind: 'read' as const, path, size, bytes: readOpenedUpTo(fd, size, max) };
  });
  return opened.kind === 'used' ? opened.value : opened;
}

const HASH_CHUNK_BYTES = 1 << 20;

/** SHA-256 of the file at `requested`, read in 1 MiB chunks (a large file is never held whole), or a refusal. */
export function hashWorkspaceFile(root: WorkspaceRoot, requested: unknown): { kind: 'hashed'; sha256: string; bytes: number } | { kind: 'refused'; refusal: WorkspacePathRefusal } {
  const opened = withWorkspaceFile(root, requested, (fd) => {
    const hash = createHash('sha256');
    const chunk = Buffer.allocUnsafe(HASH_CHUNK_BYTES);
    let total = 0;
    for (let n = readSync(fd, chunk, 0, chunk.length, null); n > 0; n = readSync(fd, chunk, 0, chunk.length, null)) {
      hash.update(chunk.subarray(0, n));
      total += n;
    }
    return { kind: 'hashed' as const, sha256: hash.digest('hex'), bytes: total };
  });
  return opened.kind === 'used' ? opened.value : opened;
}

/**
 * The largest file Palimpsest reads whole, hashes or takes in as a target (16 MiB): a file over it is
 * refused by its size (fstat) before a byte is read, so neither memory nor the event loop pays for it.
 */
export const MAX_TEXT_FILE_BYTES = 16 * 1024 * 1024;

export interface TooLarge {
  kind: 'too_large';
  path: string;
  size: number;
  limit: number;
}

const readAsync = promisify(read);

/**
 * Like readWorkspaceFile, for the request path: refused by size over `max`, else read in 1 MiB chunks on
 * the thread pool (the event loop answers other requests meanwhile), at most the size fstat gave.
 */
export async function readWorkspaceFileBounded(root: WorkspaceRoot, requested: unknown, max = MAX_TEXT_FILE_BYTES): Promise<Extract<WorkspaceRead, { kind: 'read' }> | TooLarge | Refused> {
  const file = openWorkspaceFile(root, requested);
  if (file.kind === 'refused') return file;
  try {
    if (file.size > max) return { kind: 'too_large', path: file.path, size: file.size, limit: max };
    const bytes = Buffer.allocUnsafe(file.size);
    let filled = 0;
    while (filled < file.size) {
      const { bytesRead } = await readAsync(file.fd, bytes, filled, Math.min(HASH_CHUNK_BYTES, file.size - filled), filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { kind: 'read', path: file.path, bytes: bytes.subarray(0, filled), identity: identityOf(fstatSync(file.fd, { bigint: true })) };
  } finally {
    closeSync(file.fd);
  }
}

/** Like hashWorkspaceFile, for the request path: refused by size over `max`, else hashed chunk by chunk off the event loop's reads. */
export async function hashWorkspaceFileBounded(root: WorkspaceRoot, requested: unknown, max = MAX_TEXT_FILE_BYTES): Promise<{ kind: 'hashed'; sha256: string; bytes: number } | TooLarge | Refused> {
  const file = openWorkspaceFile(root, requested);
  if (file.kind === 'refused') return file;
  try {
    if (file.size > max) return { kind: 'too_large', path: file.path, size: file.size, limit: max };
    const hash = createHash('sha256');
    const chunk = Buffer.allocUnsafe(HASH_CHUNK_BYTES);
    let total = 0;
    // To the end, not to the size fstat gave: a file that grew meanwhile must not hash as its old prefix.
    for (let n = -1; n !== 0; total += n) {
      ({ bytesRead: n } = await readAsync(file.fd, chunk, 0, chunk.length, total));
      hash.update(chunk.subarray(0, n));
      if (total + n > max) return { kind: 'too_large', path: file.path, size: total + n, limit: max };
    }
    return { kind: 'hashed', sha256: hash.digest('hex'), bytes: total };
  } finally {
    closeSync(file.fd);
  }
}
