import { closeSync, constants, fstatSync, openSync, realpathSync, statSync, type BigIntStats } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ReservedPath } from '@palimpsest/core/workspace/workspace-access';
import type { KeptPath } from '@palimpsest/core/workspace/kept-path';

export type { KeptPath } from '@palimpsest/core/workspace/kept-path';

/**
 * The configured workspace root (PALIMPSEST_WORKSPACE_ROOT), opened once at start and held open: every
 * walk starts from this directory handle, not from the path, so the root is pinned to the directory that
 * was opened (its device and inode, recorded here). Renaming the root directory keeps the workspace on
 * it; replacing the path with another directory does not move the workspace.
 *
 * Walks go through the root's handle by `/proc/self/fd/<fd>/<name>` (Linux): the kernel resolves the
 * name inside the directory the descriptor holds, which is `openat(fd, name)` for a runtime that has no
 * openat. Without such handles a walk could only re-resolve path strings, which a swapped ancestor can
 * redirect, so a root on a system without them is refused rather than served less safely.
 */

export const WORKSPACE_ROOT_ENV = 'PALIMPSEST_WORKSPACE_ROOT';

export type WorkspaceRootCode =
  | 'workspace_root_relative'
  | 'workspace_root_missing'
  | 'workspace_root_not_directory'
  | 'workspace_root_unusable'
  | 'workspace_root_reserved';

/** A misconfigured root: the process refuses to start with it instead of failing calls later. */
export class WorkspaceRootError extends Error {
  constructor(readonly code: WorkspaceRootCode, message: string) {
    super(message);
    this.name = 'WorkspaceRootError';
  }
}

/** A file's identity as the kernel reports it. dev and ino are decimal strings (they can exceed 2^53). */
export interface FileIdentity {
  dev: string;
  ino: string;
  size: number;
  mode: number;
}

export function identityOf(stats: BigIntStats): FileIdentity {
  return { dev: stats.dev.toString(), ino: stats.ino.toString(), size: Number(stats.size), mode: Number(stats.mode) };
}

export const sameNode = (a: BigIntStats, b: BigIntStats): boolean => a.dev === b.dev && a.ino === b.ino;

export interface WorkspaceRoot {
  /** The path as configured. */
  readonly path: string;
  readonly dev: string;
  readonly ino: string;
  /** The open directory handle every walk starts from. */
  readonly fd: number;
  /**
   * What Palimpsest keeps inside the root (its data directory, policy…): no tool reaches it, whatever the
   * spelling (core's checkWorkspaceAccess). Palimpsest's own names (`.palimpsest`, `.palimpsest-…`) are
   * reserved at any depth without being listed here.
   */
  readonly reserved: readonly ReservedPath[];
  /** The path that names `name` inside the directory `dirFd` holds, resolved by the kernel from the handle. */
  handlePath(dirFd: number, name: string): string;
  close(): void;
}

const fdPath = (fd: number): string => `/proc/self/fd/${fd}`;

/** Open the root: it must be absolute, exist and be a directory. Throws WorkspaceRootError otherwise. */
export function openWorkspaceRoot(path: string, onClose: () => void = () => undefined): WorkspaceRoot {
  const named = `The workspace root ${JSON.stringify(path)} (--workspace or ${WORKSPACE_ROOT_ENV})`;
  if (!isAbsolute(path)) throw new WorkspaceRootError('workspace_root_relative', `${named} must be an absolute path.`);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new WorkspaceRootError('workspace_root_missing', `${named} does not exist.`);
    if (code === 'ENOTDIR') throw new WorkspaceRootError('workspace_root_not_directory', `${named} is not a directory.`);
    throw new WorkspaceRootError('workspace_root_unusable', `${named} cannot be opened: ${code ?? String(e)}.`);
  }
  const stats = fstatSync(fd, { bigint: true });
  if (!handlesResolve(fd, stats)) {
    closeSync(fd);
    throw new WorkspaceRootError(
      'workspace_root_unusable',
      `${named} cannot be walked safely here: /proc/self/fd does not resolve directory handles (Linux with /proc is required).`,
    );
  }
  let open = true;
  return {
    path,
    dev: stats.dev.toString(),
    ino: stats.ino.toString(),
    fd,
    reserved: [],
    handlePath: (dirFd, name) => `${fdPath(dirFd)}/${name}`,
    close() {
      if (open) closeSync(fd);
      open = false;
      onClose();
    },
  };
}

const openedRoots = new Map<string, WorkspaceRoot>();

/**
 * The root named by PALIMPSEST_WORKSPACE_ROOT, or null when none is configured (unset or empty). Opened
 * once per process and path: every app context of the process shares the handle until it is closed.
 */
export function workspaceRootFromEnv(env: Readonly<Record<string, string | undefined>>): WorkspaceRoot | null {
  return sharedWorkspaceRoot(env[WORKSPACE_ROOT_ENV] || null);
}

/** The root at `path` (null: none configured), opened once per process and path. */
export function sharedWorkspaceRoot(path: string | null): WorkspaceRoot | null {
  if (path === null || path === '') return null;
  let root = openedRoots.get(path);
  if (!root) openedRoots.set(path, (root = openWorkspaceRoot(path, () => openedRoots.delete(path))));
  return root;
}

/**
 * `root` with what Palimpsest keeps added to its reserved set: each kept path that lies inside the root,
 * compared by real path (a root or data directory named through a link is still seen inside). A root
 * that lies inside a kept path would hand Palimpsest's own files to the tools: it refuses to start.
 */
export function reservingKept(root: WorkspaceRoot, kept: readonly KeptPath[]): WorkspaceRoot {
  const reserved = [...root.reserved];
  const bases = [root.path, realPathOf(root.path)];
  for (const k of kept) {
    for (const [base, path] of [[bases[0], resolve(k.path)], [bases[1], realPathOf(k.path)]]) {
      if (path === base || within(base, path) !== null) {
        throw new WorkspaceRootError(
          'workspace_root_reserved',
          `${WORKSPACE_ROOT_ENV} (${JSON.stringify(root.path)}) is or lies inside ${k.what} (${path}): make the project's own directory the root.`,
        );
      }
      const rel = within(path, base);
      if (rel === null || reserved.some((r) => r.path === rel)) continue;
      reserved.push({ path: rel, what: k.what, ...(k.siblings ? { siblings: true } : {}) });
    }
  }
  return reserved.length === root.reserved.length ? root : { ...root, reserved };
}

/** `path` relative to `dir` in `/`-separated components when it lies strictly inside it, else null. */
function within(path: string, dir: string): string | null {
  const rel = relative(dir, path);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  return rel.split(sep).join('/');
}

/** The real path of `path`: its deepest existing ancestor resolved through links, the rest as written. */
function realPathOf(path: string): string {
  let dir = resolve(path);
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(dir), ...rest);
    } catch {
      if (dirname(dir) === dir) return resolve(path);
      rest.unshift(basename(dir));
      dir = dirname(dir);
    }
  }
}

function handlesResolve(fd: number, root: BigIntStats): boolean {
  try {
    return sameNode(statSync(fdPath(fd), { bigint: true }), root);
  } catch {
    return false;
  }
}
