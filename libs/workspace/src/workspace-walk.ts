import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, type BigIntStats } from 'node:fs';
import type { WorkspacePathCode, WorkspacePathRefusal } from '@palimpsest/core/workspace/workspace-path';
import { sameNode, type WorkspaceRoot } from './workspace-root';

/**
 * The non-following walk shared by reads and publications: each name is looked up inside a directory
 * handle already held (a handle path, WorkspaceRoot.handlePath), lstat'd, refused if it is a symlink or the
 * wrong kind of node, opened with O_NOFOLLOW (O_DIRECTORY for a directory, O_NONBLOCK for a file), and the
 * opened descriptor's fstat must name the node that was lstat'd. See workspace-file-reader.ts for what
 * this guarantees and what stays out of reach.
 */

export type NodeOpen =
  | { kind: 'opened'; fd: number; stats: BigIntStats }
  | { kind: 'absent' }
  | { kind: 'refused'; refusal: WorkspacePathRefusal };

export type DirectoryWalk = { kind: 'opened'; fd: number } | { kind: 'refused'; refusal: WorkspacePathRefusal };

/** How a node is named in messages: its workspace path, and its component index when it has one. */
export interface NodeName {
  shown: string;
  component?: number;
}

export const refusal = (code: WorkspacePathCode, message: string, component?: number): WorkspacePathRefusal =>
  component === undefined ? { code, message } : { code, message, component };

/** Open the node at `handlePath` as a `want`, never following a link; ENOENT is 'absent'. */
export function openNode(handlePath: string, want: 'directory' | 'file', name: NodeName): NodeOpen {
  const stop = (code: WorkspacePathCode, message: string): NodeOpen => ({ kind: 'refused', refusal: refusal(code, message, name.component) });
  const { shown } = name;
  let seen: BigIntStats;
  try {
    seen = lstatSync(handlePath, { bigint: true });
  } catch (e) {
    return failed(e, shown, stop);
  }
  if (seen.isSymbolicLink()) return stop('PATH_SYMLINK', `${shown} is a symbolic link: the workspace does not follow links.`);
  if (want === 'directory' && !seen.isDirectory()) return stop('PATH_NOT_FOUND', `${shown} is not a directory.`);
  if (want === 'file' && !seen.isFile()) return stop('PATH_NOT_A_FILE', `${shown} is not a regular file.`);
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO swapped in for the file must not hang the open (it fails the identity check below).
    const kind = want === 'file' ? constants.O_NONBLOCK : constants.O_DIRECTORY;
    fd = openSync(handlePath, constants.O_RDONLY | constants.O_NOFOLLOW | kind);
  } catch (e) {
    return failed(e, shown, stop);
  }
  const opened = fstatSync(fd, { bigint: true });
  if (!sameNode(opened, seen) || (want === 'file' ? !opened.isFile() : !opened.isDirectory())) {
    closeSync(fd);
    return stop('PATH_CHANGED', `${shown} changed between its check and its opening: read it again.`);
  }
  return { kind: 'opened', fd, stats: opened };
}

function failed(e: unknown, shown: string, stop: (code: WorkspacePathCode, message: string) => NodeOpen): NodeOpen {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { kind: 'absent' };
  if (code === 'ENOTDIR') return stop('PATH_CHANGED', `${shown} stopped being a directory while it was opened: read it again.`);
  if (code === 'ELOOP') return stop('PATH_SYMLINK', `${shown} became a symbolic link while it was opened: the workspace does not follow links.`);
  throw e;
}

/**
 * Open the directory the components name, from the root's handle, one component at a time. The answer
 * is a descriptor the caller owns (the root itself is reopened through its handle, never by its path).
 * With `createParents`, a missing directory is made inside the handle held (mode 0777 less the process
 * umask, like every other tool's mkdir; mkdir never follows a link at the name it creates) and then opened like any other, so a link raced in is still refused.
 */
export function walkDirectories(root: WorkspaceRoot, components: readonly string[], opts: { createParents: boolean }): DirectoryWalk {
  let dirFd = openSync(root.handlePath(root.fd, '.'), constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  try {
    for (let i = 0; i < components.length; i++) {
      const step = openDirectory(root, dirFd, components, i, opts.createParents);
      if (step.kind === 'refused') return step;
      closeSync(dirFd);
      dirFd = step.fd;
    }
    const opened = dirFd;
    dirFd = -1;
    return { kind: 'opened', fd: opened };
  } finally {
    if (dirFd >= 0) closeSync(dirFd);
  }
}

function openDirectory(root: WorkspaceRoot, dirFd: number, components: readonly string[], i: number, create: boolean): DirectoryWalk {
  const name: NodeName = { shown: JSON.stringify(components.slice(0, i + 1).join('/')), component: i };
  const path = root.handlePath(dirFd, components[i]);
  let step = openNode(path, 'directory', name);
  if (step.kind === 'absent' && create) {
    try {
      mkdirSync(path, { mode: 0o777 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e; // made by someone else meanwhile: open it as found
    }
    step = openNode(path, 'directory', name);
  }
  if (step.kind === 'absent') {
    return { kind: 'refused', refusal: refusal('PATH_NOT_FOUND', `${name.shown} does not exist under the workspace root.`, i) };
  }
  return step.kind === 'opened' ? { kind: 'opened', fd: step.fd } : step;
}
