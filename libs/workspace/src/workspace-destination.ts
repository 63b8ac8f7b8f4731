import { closeSync, fstatSync } from 'node:fs';
import { checkWorkspaceAccess } from '@palimpsest/core/workspace/workspace-access';
import type { WorkspacePathRefusal } from '@palimpsest/core/workspace/workspace-path';
import type { WorkspaceRoot } from './workspace-root';
import { walkDirectories } from './workspace-walk';

/**
 * The directory a publication writes into, opened by the non-following walk (workspace-walk.ts) and held:
 * every step of the publication (workspace-file-writer.ts) names its files through this handle, so a path
 * string is resolved once, here, and an ancestor renamed or swapped for a link afterwards cannot redirect
 * the write. The directory's identity (dev, ino) is the key of the publication's lease (workspace-lease.ts):
 * two workspace paths, roots or aliases that reach one physical directory share it.
 */
export interface Destination {
  /** The workspace path, in its canonical spelling. */
  readonly path: string;
  /** Its last component: the file's name in the destination directory. */
  readonly name: string;
  /** The open destination directory (owned by this Destination until close()). */
  readonly dirFd: number;
  /** The destination directory's identity: the lease key. */
  readonly dir: { dev: string; ino: string };
  /** The handle path of `name` (a single component) in this directory. */
  entry(name: string): string;
  close(): void;
}

export type DestinationOpen = { kind: 'opened'; dest: Destination } | { kind: 'refused'; refusal: WorkspacePathRefusal };

/**
 * Open the destination directory of `path` under `root`. With `createParents`, missing ancestors are made
 * one at a time inside the handle held (mode 0700); they remain if the publication is later rejected
 * (seed 003). Nothing is looked at in the directory itself: the file may or may not exist.
 */
export function openDestination(root: WorkspaceRoot, path: unknown, opts: { createParents: boolean }): DestinationOpen {
  // A write: the reserved set and `.git` internals are refused before any directory is made.
  const check = checkWorkspaceAccess(path, { access: 'write', reserved: root.reserved });
  if (check.kind === 'refused') return check;
  const { components } = check.value;
  const walk = walkDirectories(root, components.slice(0, -1), opts);
  if (walk.kind === 'refused') return walk;
  const dirFd = walk.fd;
  const stats = fstatSync(dirFd, { bigint: true });
  let open = true;
  const dest: Destination = {
    path: check.value.path,
    name: components[components.length - 1],
    dirFd,
    dir: { dev: stats.dev.toString(), ino: stats.ino.toString() },
    entry(name) {
      assertEntryName(name);
      if (!open) throw new Error(`the destination of ${JSON.stringify(dest.path)} was closed`);
      return root.handlePath(dirFd, name);
    },
    close() {
      if (open) closeSync(dirFd);
      open = false;
    },
  };
  return { kind: 'opened', dest };
}

/** Entries are single names inside the held directory: a separator or a dot name would leave it. */
function assertEntryName(name: string): void {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0')) {
    throw new TypeError(`${JSON.stringify(name)} is not a single name inside the destination directory`);
  }
}
