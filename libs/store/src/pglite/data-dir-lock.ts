import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { DataDirInUseError } from '../errors';

/**
 * Nothing stops two processes from opening one PGlite data directory, and both would write to it.
 * The lock is a sibling file `<dataDir>.lock` holding the owner's pid. It is created atomically
 * (written to a private temp file, then hard-linked into place, which fails if the lock exists),
 * so a reader never sees a half-written pid. A lock whose pid is dead is stale and taken over.
 * Known limit: if the dead owner's pid has been reused by an unrelated live process, the lock
 * looks live; delete the lock file by hand after checking.
 */
export interface DataDirLock {
  readonly lockPath: string;
  /** Removes the lock file if it is still ours. Synchronous so it can run in an 'exit' handler. */
  release(): void;
}

export function lockPathFor(dataDir: string): string {
  return `${resolve(dataDir)}.lock`;
}

export function acquireDataDirLock(dataDir: string, pid: number = process.pid): DataDirLock {
  const lockPath = lockPathFor(dataDir);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(lockPath, pid)) return ownedLock(lockPath, pid);
    const holder = readPid(lockPath);
    if (holder === undefined) continue; // vanished between our attempts: try again
    if (isAlive(holder)) throw new DataDirInUseError(resolve(dataDir), holder, lockPath);
    takeOverStale(dataDir, lockPath, holder);
  }
  throw new Error(`could not acquire the data directory lock ${lockPath}: it keeps changing hands`);
}

function tryCreate(lockPath: string, pid: number): boolean {
  const temp = `${lockPath}.${pid}.${randomBytes(4).toString('hex')}`;
  const fd = openSync(temp, 'wx', 0o644);
  try {
    writeSync(fd, `${pid}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, lockPath);
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temp);
  }
}

/**
 * Moves the stale lock aside and checks that what we moved is the stale one. If another process
 * took the lock over in between, we moved a live lock: put it back and report it as in use.
 */
function takeOverStale(dataDir: string, lockPath: string, stalePid: number): void {
  const aside = `${lockPath}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    renameSync(lockPath, aside);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return; // someone else moved it: retry from the top
    throw error;
  }
  const moved = readPid(aside);
  if (moved !== undefined && moved !== stalePid && isAlive(moved)) {
    try {
      linkSync(aside, lockPath);
    } catch {
      // the path was taken again meanwhile; whoever holds it now owns it
    }
    unlinkSync(aside);
    throw new DataDirInUseError(resolve(dataDir), moved, lockPath);
  }
  unlinkSync(aside);
}

function ownedLock(lockPath: string, pid: number): DataDirLock {
  let released = false;
  return {
    lockPath,
    release() {
      if (released) return;
      released = true;
      if (readPid(lockPath) !== pid) return; // taken over (we were presumed dead): not ours to remove
      try {
        unlinkSync(lockPath);
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') throw error;
      }
    },
  };
}

function readPid(path: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  const pid = Number(text.trim());
  // Unreadable content cannot name a live owner: treat it as stale (pid 0 is never alive here).
  return Number.isSafeInteger(pid) && pid > 0 ? pid : 0;
}

export function isAlive(pid: number): boolean {
  if (pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM'; // exists, owned by someone else
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
