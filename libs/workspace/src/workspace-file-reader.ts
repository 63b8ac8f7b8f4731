import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, type BigIntStats } from 'node:fs';
import {
  checkWorkspacePath,
  type WorkspacePathCode,
  type WorkspacePathRefusal,
} from '@palimpsest/core/workspace/workspace-path';
import { identityOf, sameNode, type FileIdentity, type WorkspaceRoot } from './workspace-root';

/**
 * Read a file under the workspace root without following a symbolic link anywhere on its path.
 *
 * The path is first checked by the pure rules (libs/core/src/workspace/workspace-path.ts). The walk then
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

const refused = (code: WorkspacePathCode, message: string, component?: number): WorkspaceRead => ({
  kind: 'refused',
  refusal: component === undefined ? { code, message } : { code, message, component },
});

type Step = { kind: 'opened'; fd: number; stats: BigIntStats } | { kind: 'refused'; read: WorkspaceRead };

/** Look `name` up inside `dirFd`, refuse a link or the wrong kind of node, open it, and check it is the node looked at. */
function openStep(root: WorkspaceRoot, dirFd: number, components: readonly string[], i: number): Step {
  const last = i === components.length - 1;
  const shown = JSON.stringify(components.slice(0, i + 1).join('/'));
  const stop = (code: WorkspacePathCode, message: string): Step => ({ kind: 'refused', read: refused(code, message, i) });
  const path = root.handlePath(dirFd, components[i]);
  let seen: BigIntStats;
  try {
    seen = lstatSync(path, { bigint: true });
  } catch (e) {
    return failed(e, shown, stop);
  }
  if (seen.isSymbolicLink()) return stop('PATH_SYMLINK', `${shown} is a symbolic link: the workspace does not follow links.`);
  if (!last && !seen.isDirectory()) return stop('PATH_NOT_FOUND', `${shown} is not a directory.`);
  if (last && !seen.isFile()) return stop('PATH_NOT_A_FILE', `${shown} is not a regular file.`);
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO swapped in for the file must not hang the open (it fails the identity check below).
    const kind = last ? constants.O_NONBLOCK : constants.O_DIRECTORY;
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | kind);
  } catch (e) {
    return failed(e, shown, stop);
  }
  const opened = fstatSync(fd, { bigint: true });
  if (!sameNode(opened, seen) || (last ? !opened.isFile() : !opened.isDirectory())) {
    closeSync(fd);
    return stop('PATH_CHANGED', `${shown} changed between its check and its opening: read it again.`);
  }
  return { kind: 'opened', fd, stats: opened };
}

function failed(e: unknown, shown: string, stop: (code: WorkspacePathCode, message: string) => Step): Step {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return stop('PATH_NOT_FOUND', `${shown} does not exist under the workspace root.`);
  if (code === 'ENOTDIR') return stop('PATH_CHANGED', `${shown} stopped being a directory while it was opened: read it again.`);
  if (code === 'ELOOP') return stop('PATH_SYMLINK', `${shown} became a symbolic link while it was opened: the workspace does not follow links.`);
  throw e;
}

/** Read `requested` (a workspace path) under `root`: its bytes and the identity of the file they came from, or a refusal. */
export function readWorkspaceFile(root: WorkspaceRoot, requested: unknown): WorkspaceRead {
  const check = checkWorkspacePath(requested);
  if (check.kind === 'refused') return check;
  const { components, path } = check.value;
  let dirFd = root.fd;
  try {
    for (let i = 0; i < components.length; i++) {
      const step = openStep(root, dirFd, components, i);
      if (step.kind === 'refused') return step.read;
      if (dirFd !== root.fd) closeSync(dirFd);
      dirFd = step.fd;
      if (i === components.length - 1) {
        const bytes = readFileSync(dirFd);
        return { kind: 'read', path, bytes, identity: identityOf(fstatSync(dirFd, { bigint: true })) };
      }
    }
    throw new Error('unreachable: a valid workspace path has at least one component');
  } finally {
    if (dirFd !== root.fd) closeSync(dirFd);
  }
}
