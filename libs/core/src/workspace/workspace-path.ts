/**
 * The workspace's path rules (issue 14; seed 003 "Workspace filesystem contract", seed 004's path codes).
 * Pure: a requested path is a string, the answer is its normalized components or a refusal value.
 * Nothing here touches the disk, so what only the disk can tell (a missing component, a symlink, an
 * identity swapped under IO) is the workspace adapter's to refuse (libs/store/src/workspace), with the
 * codes listed here.
 *
 * A path is a relative POSIX path of one or more components separated by single `/`. Nothing is
 * normalized away: a path that is not already in its one canonical spelling is refused, so two
 * different strings never name the same file (`a/./b`, `a//b`, `a/b/` are refused, not rewritten).
 */

/**
 * Stable refusal codes. PATH_ESCAPE and PATH_NOT_FOUND are seed 004's; the others name what seed 003's
 * "rejects escapes, reserved/ambiguous path components and static symlinks" leaves unnamed.
 */
export const WORKSPACE_PATH_CODES = {
  /** Absolute, or a `..` component: the path would leave the root. */
  PATH_ESCAPE: 'PATH_ESCAPE',
  /** Empty path, empty component, `.` component, trailing slash, control character, backslash, not text. */
  PATH_INVALID: 'PATH_INVALID',
  /** A component another platform or filesystem reads differently (device names, trailing dot/space, `:`). */
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
  /** The path as given, which is its canonical spelling (components joined by `/`). */
  path: string;
  components: readonly string[];
}

export type WorkspacePathCheck =
  | { kind: 'valid'; value: WorkspacePath }
  | { kind: 'refused'; refusal: WorkspacePathRefusal };

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

function show(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function checkComponent(c: string, i: number): WorkspacePathCheck | null {
  const where = `component ${i + 1} (${show(c)})`;
  if (c === '..') return refused('PATH_ESCAPE', `${where} is "..": a workspace path cannot climb out of the root.`, i);
  if (c === '') return refused('PATH_INVALID', `component ${i + 1} is empty: separate components with a single "/", with none at the start or end.`, i);
  if (c === '.') return refused('PATH_INVALID', `${where} is ".": name each directory once, without "." components.`, i);
  if (utf8Length(c) > MAX_COMPONENT_UTF8_BYTES) {
    return refused('PATH_TOO_LONG', `component ${i + 1} is longer than ${MAX_COMPONENT_UTF8_BYTES} UTF-8 bytes.`, i);
  }
  if (RESERVED_CHARACTERS.test(c)) {
    return refused('PATH_RESERVED', `${where} holds one of < > : " | ? * (":" names an alternate data stream on NTFS).`, i);
  }
  if (/[. ]$/.test(c)) return refused('PATH_RESERVED', `${where} ends in a dot or a space, which Windows drops.`, i);
  if (c.startsWith(PUBLICATION_NAME_PREFIX)) {
    return refused('PATH_RESERVED', `${where} starts with "${PUBLICATION_NAME_PREFIX}", which names a publication's staged and backup files.`, i);
  }
  const stem = c.split('.')[0].replace(/ +$/, '').toUpperCase();
  if (DEVICE_NAMES.has(stem)) return refused('PATH_RESERVED', `${where} is the Windows device name ${stem}.`, i);
  return null;
}

/** Validate a requested workspace path: its components, or the first rule it breaks. */
export function checkWorkspacePath(requested: unknown): WorkspacePathCheck {
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
  if (requested.endsWith('/')) return refused('PATH_INVALID', 'the path ends with "/": name a file, not a directory.');
  if (utf8Length(requested) > MAX_PATH_UTF8_BYTES) {
    return refused('PATH_TOO_LONG', `the path is longer than ${MAX_PATH_UTF8_BYTES} UTF-8 bytes.`);
  }
  const components = requested.split('/');
  // An escape anywhere outranks any other fault: `a//../b` is reported as the escape it attempts.
  const climb = components.indexOf('..');
  if (climb >= 0) return checkComponent('..', climb)!;
  for (let i = 0; i < components.length; i++) {
    const fault = checkComponent(components[i], i);
    if (fault) return fault;
  }
  return { kind: 'valid', value: { path: requested, components } };
}
