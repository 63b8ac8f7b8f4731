import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  fstatSync,
  linkSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { WorkspacePathRefusal } from '@palimpsest/core/workspace/workspace-path';
import type { Destination } from './workspace-destination';
import { MAX_TEXT_FILE_BYTES } from './workspace-file-reader';
import { identityOf, type FileIdentity } from './workspace-root';
import { openNode, type NodeName } from './workspace-walk';

/**
 * The IO steps of a publication (issue 14; seed 003 "Workspace filesystem contract"), each one syscall-sized
 * step on a held Destination, every name resolved inside its directory handle, never by the workspace path.
 * The caller sequences them (and writes the journal's events between them):
 *
 *   readEntry (hash check under the lease) → stageFile (a new inode, fsync'd, the old file's mode or the umask's) →
 *   readEntry again → linkBackup (replacing only) → installOver | installNew → syncDirectory → removeEntry(backup)
 *
 * - A stage is created O_CREAT|O_EXCL|O_NOFOLLOW: a name planted in advance (a link, a file) fails the
 *   create with EEXIST instead of being followed or truncated.
 * - installOver is rename(2): readers see the old bytes or the new ones, never a mix.
 * - installNew is link(2), which never replaces: a file that appeared after the check is kept ('exists').
 * - linkBackup is a second name for the old inode (no copy); restoreBackup renames it back.
 * - syncDirectory fsyncs the directory: until then a rename or link may be lost by a power cut.
 *
 * Refusals are answers (a link or a non-regular file where a file is read); any other failure throws,
 * and callers turn it into an io_error outcome.
 *
 * Out of reach: a writer that does not take the lease can change the file between the last readEntry and
 * the install, and its change is then replaced (seed 003: quiesce such writers); a process with the same
 * privileges can move the held directory out of the workspace, and the publication lands where it now is;
 * an fsync'd file and directory are durable only as far as the disk honours flushes.
 */

export type EntryRead =
  | { kind: 'absent' }
  | { kind: 'file'; bytes: Buffer; sha256: string; identity: FileIdentity }
  /** Over MAX_TEXT_FILE_BYTES: never read (no file Palimpsest publishes over is that large, so it is drift). */
  | { kind: 'too_large'; size: number; identity: FileIdentity }
  | { kind: 'refused'; refusal: WorkspacePathRefusal };

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

function nameOf(dest: Destination, name: string): NodeName {
  if (name === dest.name) return { shown: JSON.stringify(dest.path), component: dest.path.split('/').length - 1 };
  const dir = dest.path.split('/').slice(0, -1);
  return { shown: JSON.stringify([...dir, name].join('/')) };
}

/** The regular file at `name` in the destination (not following a link), or 'absent', or 'too_large', or a refusal. */
export function readEntry(dest: Destination, name: string = dest.name): EntryRead {
  const opened = openNode(dest.entry(name), 'file', nameOf(dest, name));
  if (opened.kind !== 'opened') return opened;
  try {
    if (opened.stats.size > MAX_TEXT_FILE_BYTES) return { kind: 'too_large', size: Number(opened.stats.size), identity: identityOf(opened.stats) };
    const bytes = readFileSync(opened.fd);
    return { kind: 'file', bytes, sha256: sha256(bytes), identity: identityOf(fstatSync(opened.fd, { bigint: true })) };
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * Create `stageName` exclusively, write `bytes`, give it `mode` (the replaced file's), fsync it. With
 * `mode` null (a new file) it keeps the mode its creation gave it, 0666 less the process umask, like every
 * tool's new file does. Removed again if any step fails.
 */
export function stageFile(dest: Destination, stageName: string, bytes: Buffer, mode: number | null): { sha256: string; bytes: number; identity: FileIdentity } {
  const path = dest.entry(stageName);
  const fd = openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, mode === null ? 0o666 : 0o600);
  try {
    writeAll(fd, bytes);
    if (mode !== null) fchmodSync(fd, mode & 0o7777);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    unlinkQuietly(path);
    throw e;
  }
  // The installed file is this inode (rename and link keep it): its identity, known without reading the path again.
  const identity = identityOf(fstatSync(fd, { bigint: true }));
  closeSync(fd);
  return { sha256: sha256(bytes), bytes: bytes.length, identity };
}

function writeAll(fd: number, bytes: Buffer): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

/** rename(stage → dest.name): atomically replaces the file (or creates it, for a caller that allows that). */
export function installOver(dest: Destination, stageName: string): void {
  renameSync(dest.entry(stageName), dest.entry(dest.name));
}

/** link(stage → dest.name), never replacing: 'exists' when a file appeared meanwhile (kept; the stage removed). */
export function installNew(dest: Destination, stageName: string): 'installed' | 'exists' {
  const stage = dest.entry(stageName);
  try {
    linkSync(stage, dest.entry(dest.name));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    unlinkSync(stage);
    return 'exists';
  }
  unlinkSync(stage);
  return 'installed';
}

/** link(dest.name → backupName): the old inode keeps a name after the install renames over it. */
export function linkBackup(dest: Destination, backupName: string): void {
  linkSync(dest.entry(dest.name), dest.entry(backupName));
}

/** rename(backup → dest.name): put the old file back. */
export function restoreBackup(dest: Destination, backupName: string): void {
  renameSync(dest.entry(backupName), dest.entry(dest.name));
}

/** unlink(name): true when it was removed, false when there was nothing to remove. */
export function removeEntry(dest: Destination, name: string): boolean {
  try {
    unlinkSync(dest.entry(name));
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}

/** The names in the destination directory (read through its handle, like every other step). */
export function listEntries(dest: Destination): string[] {
  return readdirSync(`/proc/self/fd/${dest.dirFd}`);
}

/** fsync the destination directory: what makes an install (rename, link, unlink) durable. */
export function syncDirectory(dest: Destination): void {
  fsyncSync(dest.dirFd);
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // best effort: the failure that brought us here is the one reported
  }
}

/**
 * The baseline a publication is measured against (issue 14's benchmark): the usual durable write by plain
 * paths, with no walk, no lease and no journal: write a temp file, fsync, rename over, fsync the directory.
 */
export function durableWrite(dir: string, name: string, bytes: Buffer): void {
  const temp = join(dir, `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600);
  try {
    writeAll(fd, bytes);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    unlinkQuietly(temp);
    throw e;
  }
  closeSync(fd);
  renameSync(temp, join(dir, name));
  const dirFd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}
