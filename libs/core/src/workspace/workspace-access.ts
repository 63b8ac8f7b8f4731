import {
  checkWorkspacePath,
  fileRule,
  isPalimpsestName,
  show,
  type CheckOptions,
  type WorkspacePath,
  type WorkspacePathCheck,
  type WorkspacePathRefusal,
} from './workspace-path';

/**
 * Which workspace paths a tool may use (pure): besides the path rules (workspace-path.ts), what
 * Palimpsest keeps inside the root — its data directory, lock, gateway address and credential, prepared
 * image, the owner's policy — is reserved to every tool, and `.git` internals to writes and bindings.
 * The reserved set is given: it is computed where the root is opened (libs/workspace, the app context).
 */

/**
 * A path Palimpsest keeps inside the workspace root, reserved with everything under it. The set is
 * computed where the root is opened (libs/workspace), from what the process was configured with.
 */
export interface ReservedPath {
  /** Its canonical workspace path. */
  path: string;
  /** What is kept there, for the refusal's message: "the embedded store's data directory". */
  what: string;
  /** Siblings named `<name>.…` too: a data directory's lock, gateway address and staging copies sit beside it. */
  siblings?: boolean;
}

/** What a tool does with a path: reads (read_file, list_files, grep) or writes and bindings (edit_file, write_file, from_workspace). */
export type WorkspaceAccess = 'read' | 'write';

/** The reserved entry that covers `path` (a canonical path), or undefined. */
export function reservedEntryOf(path: string, reserved: readonly ReservedPath[]): ReservedPath | undefined {
  return reserved.find((r) => path === r.path || path.startsWith(`${r.path}/`) || (r.siblings === true && path.startsWith(`${r.path}.`)));
}

/**
 * Whether a listing leaves `path` (canonical, its last component `name`) out: Palimpsest's own names
 * and whatever the reserved set covers. Nothing reserved is listed, searched or counted.
 */
export const isReservedPath = (path: string, name: string, reserved: readonly ReservedPath[]): boolean =>
  isPalimpsestName(name) || reservedEntryOf(path, reserved) !== undefined;

/** The refusal for `path` under the reserved set and the access asked, or null. */
export function reservedRefusal(path: WorkspacePath, reserved: readonly ReservedPath[], access: WorkspaceAccess): WorkspacePathRefusal | null {
  const entry = reservedEntryOf(path.path, reserved);
  if (entry) {
    return { code: 'PATH_RESERVED', message: `${show(path.path)} is reserved: ${entry.what} is kept there, out of every tool's reach. Work on the project's own files (list_files shows them).` };
  }
  const git = path.components.indexOf('.git');
  if (access === 'write' && git >= 0) {
    return {
      code: 'PATH_RESERVED',
      message: `${show(path.path)} is inside ".git", git's own record: no tool writes or binds it (read_file still reads it). Change the repository with git itself.`,
      component: git,
    };
  }
  return null;
}

export interface AccessOptions extends CheckOptions {
  access: WorkspaceAccess;
  reserved: readonly ReservedPath[];
}

/**
 * checkWorkspacePath with the reserved set: the whole rule a tool's path is held to before any IO. A
 * reserved path is PATH_RESERVED however it is spelled, a directory's spelling for a file included.
 */
export function checkWorkspaceAccess(requested: unknown, opts: AccessOptions): WorkspacePathCheck {
  const check = checkWorkspacePath(requested, { directory: true });
  if (check.kind === 'refused') return check;
  const refusal = reservedRefusal(check.value, opts.reserved, opts.access);
  if (refusal) return { kind: 'refused', refusal };
  return opts.directory ? check : (fileRule(requested as string, check.value) ?? check);
}
