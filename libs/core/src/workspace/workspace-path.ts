/**
 * The workspace's path rules (seed 003 "Workspace filesystem contract", seed 004's path codes).
 * Pure: a requested path is a string, the answer is its canonical components or a refusal value.
 * Nothing here touches the disk, so what only the disk can tell (a missing component, a symlink, an
 * identity swapped under IO) is the workspace adapter's to refuse (libs/workspace), with the codes
 * listed here.
 *
 * A path is relative and POSIX. It is normalized lexically, the way a shell reads it: empty and `.`
 * components are dropped and `..` takes back the component before it, so `./src/a.ts`, `src//a.ts` and
 * `src/../src/a.ts` all name `src/a.ts`, the one canonical spelling every binding and event records.
 * A `..` that would climb above the root is PATH_ESCAPE, whatever follows it. Links play no part in
 * this: the adapter never follows one, so the lexical answer is the file that is opened.
 *
 * Palimpsest's own names (`.palimpsest`, `.palimpsest-…`) are refused here at any depth; what else it
 * keeps inside a root, and `.git` for writes, is workspace-access.ts's.
 */

/**
 * Stable refusal codes. PATH_ESCAPE and PATH_NOT_FOUND are seed 004's; the others name what seed 003's
 * "rejects escapes, reserved/ambiguous path components and static symlinks" leaves unnamed.
 */
export const WORKSPACE_PATH_CODES = {
  /** Absolute, a drive letter, or a `..` that climbs above the root. */
  PATH_ESCAPE: 'PATH_ESCAPE',
  /** Empty, the root where a file is meant, a trailing slash on a file, control character, backslash, not text. */
  PATH_INVALID: 'PATH_INVALID',
  /**
   * Palimpsest's own files (its directory, data, lock, gateway address, policy), `.git` internals for a
   * write, or a component another platform or filesystem reads differently (device names, trailing dot/space, `:`).
   */
  PATH_RESERVED: 'PATH_RESERVED',
  /** Longer than the filesystem takes (a component over 255 UTF-8 bytes, the path over 4095). */
  PATH_TOO_LONG: 'PATH_TOO_LONG',
  /** IO: a component does not exist, or an ancestor is not a directory. */
  PATH_NOT_FOUND: 'PATH_NOT_FOUND',
  /** IO: a component is a symbolic link (the file itself or any ancestor). */
  PATH_SYMLINK: 'PATH_SYMLINK',
  /** IO: the path names something other than a regular file (a directory, a FIFO, a device). */
  PATH_NOT_A_FILE: 'PATH_NOT_A_FILE',
  /** IO: what was opened is not what was validated (swapped between the check and the open). */
  PATH_CHANGED: 'PATH_CHANGED',
} as const;

export type WorkspacePathCode = keyof typeof WORKSPACE_PATH_CODES;

export interface WorkspacePathRefusal {
  code: WorkspacePathCode;
  message: string;
  /** The offending component's index, when one component is to blame. */
  component?: number;
}

export interface WorkspacePath {
  /** The canonical spelling: components joined by `/` (`.` for the root, which only a directory path may name). */
  path: string;
  components: readonly string[];
}

export type WorkspacePathCheck =
  | { kind: 'valid'; value: WorkspacePath }
  | { kind: 'refused'; refusal: WorkspacePathRefusal };

export interface CheckOptions {
  /** The path names a directory (list_files, grep): the root (`.`) and a trailing slash are accepted. */
  directory?: boolean;
}

export const MAX_COMPONENT_UTF8_BYTES = 255;
export const MAX_PATH_UTF8_BYTES = 4095;

/** Windows device names, reserved with any extension (`NUL.txt`) and in any case. */
const DEVICE_NAMES = new Set([
  'CON', 'PRN', 'AUX', 'NUL', 'CONIN$', 'CONOUT$', 'CLOCK$',
  ...Array.from({ length: 10 }, (_, i) => `COM${i}`),
  ...Array.from({ length: 10 }, (_, i) => `LPT${i}`),
  'COM¹', 'COM²', 'COM³', 'LPT¹', 'LPT²', 'LPT³',
]);

/** The staging and backup files of a publication are named with this prefix; no workspace path may name one. */
export const PUBLICATION_NAME_PREFIX = '.palimpsest-';
/**
 * The directory an embedded store keeps by default in the directory it was started from
 * (`.palimpsest/data`, its lock and its gateway address beside it). Reserved at any depth: a project
 * started from a subdirectory, or holding another project's store, keeps one there.
 */
export const PALIMPSEST_DIRECTORY = '.palimpsest';

/** A name no workspace path may hold at any depth, and that listings never show: Palimpsest's own. */
export const isPalimpsestName = (name: string): boolean => name === PALIMPSEST_DIRECTORY || name.startsWith(PUBLICATION_NAME_PREFIX);

/** Characters Windows refuses in names; `:` also opens an NTFS alternate data stream. */
const RESERVED_CHARACTERS = /[<>:"|?*]/;
/** C0 controls (NUL included), DEL and C1 controls. */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const refused = (code: WorkspacePathCode, message: string, component?: number): WorkspacePathCheck => ({
  kind: 'refused',
  refusal: component === undefined ? { code, message } : { code, message, component },
});

function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

/** A string quoted for a message, with no raw control character (messages reach logs and terminals). */
export function show(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const OWN_FILES = 'Palimpsest keeps its own files there (its store, lock, gateway address and credential)';

function checkComponent(c: string, i: number, of: string): WorkspacePathCheck | null {
  const where = `component ${i + 1} (${show(c)})${of}`;
  if (utf8Length(c) > MAX_COMPONENT_UTF8_BYTES) {
    return refused('PATH_TOO_LONG', `component ${i + 1}${of} is longer than ${MAX_COMPONENT_UTF8_BYTES} UTF-8 bytes.`, i);
  }
  if (c === PALIMPSEST_DIRECTORY) return refused('PATH_RESERVED', `${where} is reserved: ${OWN_FILES}, out of every tool's reach.`, i);
  if (RESERVED_CHARACTERS.test(c)) {
    return refused('PATH_RESERVED', `${where} holds one of < > : " | ? * (":" names an alternate data stream on NTFS).`, i);
  }
  if (/[. ]$/.test(c)) return refused('PATH_RESERVED', `${where} ends in a dot or a space, which Windows drops.`, i);
  if (c.startsWith(PUBLICATION_NAME_PREFIX)) {
    return refused('PATH_RESERVED', `${where} is reserved: names starting with "${PUBLICATION_NAME_PREFIX}" are a publication's staged and backup files.`, i);
  }
  const stem = c.split('.')[0].replace(/ +$/, '').toUpperCase();
  if (DEVICE_NAMES.has(stem)) return refused('PATH_RESERVED', `${where} is the Windows device name ${stem}.`, i);
  return null;
}

/**
 * The components `requested` names once `.` and empty components are dropped and each `..` has taken
 * back the one before it, or the index of the `..` that climbs above the root.
 */
function normalize(requested: string): { components: string[] } | { escape: number } {
  const components: string[] = [];
  const raw = requested.split('/');
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '' || c === '.') continue;
    if (c !== '..') components.push(c);
    else if (components.pop() === undefined) return { escape: i };
  }
  return { components };
}

/** The canonical path `requested` names (`.` for the root), or the first rule it breaks. */
function canonicalPath(requested: unknown): WorkspacePathCheck {
  if (typeof requested !== 'string') return refused('PATH_INVALID', 'the path must be a string.');
  if (requested === '') return refused('PATH_INVALID', 'the path is empty: name a file relative to the workspace root.');
  if (LONE_SURROGATE.test(requested)) return refused('PATH_INVALID', 'the path holds an unpaired surrogate: it is not text a filesystem can store.');
  const control = CONTROL_CHARACTERS.exec(requested);
  if (control) {
    const hex = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    return refused('PATH_INVALID', `the path holds the control character U+${hex} at index ${control.index}.`);
  }
  if (requested.includes('\\')) {
    return refused('PATH_INVALID', 'the path holds a backslash: separate components with "/" (a backslash is a separator on Windows only).');
  }
  if (requested.startsWith('/')) {
    return refused('PATH_ESCAPE', `${show(requested)} is absolute: send a path relative to the workspace root.`);
  }
  if (/^[A-Za-z]:/.test(requested)) {
    return refused('PATH_ESCAPE', `${show(requested)} starts with a drive letter: send a path relative to the workspace root.`);
  }
  const normalized = normalize(requested);
  if ('escape' in normalized) {
    return refused('PATH_ESCAPE', `component ${normalized.escape + 1} ("..") of ${show(requested)} climbs above the workspace root: a workspace path stays inside it.`, normalized.escape);
  }
  const { components } = normalized;
  const path = components.join('/');
  if (utf8Length(path) > MAX_PATH_UTF8_BYTES) {
    return refused('PATH_TOO_LONG', `the path is longer than ${MAX_PATH_UTF8_BYTES} UTF-8 bytes.`);
  }
  const of = path === requested ? '' : ` of ${show(path)}`;
  for (let i = 0; i < components.length; i++) {
    const fault = checkComponent(components[i], i, of);
    if (fault) return fault;
  }
  return components.length === 0 ? { kind: 'valid', value: { path: '.', components } } : { kind: 'valid', value: { path, components } };
}

/** A file's path names neither the root nor, by a trailing `/`, `.` or `..`, a directory. */
/** The rule a file path adds to a directory's: it names something below the root, and not as a directory. */
export function fileRule(requested: string, path: WorkspacePath): WorkspacePathCheck | null {
  if (path.components.length === 0) {
    return refused('PATH_INVALID', `${show(requested)} names the workspace root, a directory: name a file relative to it.`);
  }
  if (/\/\.{0,2}$/.test(requested)) {
    return refused('PATH_INVALID', `${show(requested)} ends with "/", "." or "..", which name a directory: name a file.`);
  }
  return null;
}

/**
 * Validate a requested workspace path: its canonical components, or the first rule it breaks. A benign
 * spelling (`./a`, `a//b`, `a/../b`) that stays inside the root is answered with its canonical path.
 */
export function checkWorkspacePath(requested: unknown, opts: CheckOptions = {}): WorkspacePathCheck {
  const check = canonicalPath(requested);
  if (check.kind === 'refused' || opts.directory) return check;
  return fileRule(requested as string, check.value) ?? check;
}
