import { closeSync, lstatSync, readdirSync, readFileSync, type Dirent } from 'node:fs';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import { checkWorkspaceAccess, isReservedPath, type ReservedPath } from '@palimpsest/core/workspace/workspace-access';
import type { WorkspacePathRefusal } from '@palimpsest/core/workspace/workspace-path';
import type { WorkspaceRoot } from './workspace-root';
import { readWorkspaceFileUpTo } from './workspace-file-reader';
import { openNode, walkDirectories } from './workspace-walk';

/**
 * Directory listings under the workspace root for list_files and grep (seed 004). Every directory is
 * opened by the non-following walk (workspace-walk.ts) from the root's handle and read through that
 * handle; a symbolic link is reported as 'symlink' and never entered or read, wherever it points.
 *
 * Order: names are sorted (by UTF-16 code units) inside each directory and a directory is followed by its
 * contents, so paths come out sorted component by component and a walk stopped at a cap has listed a
 * prefix of the full answer.
 *
 * Every walk skips a publication's staged and backup files (`.palimpsest-…`, a reserved prefix). Recursive
 * walks skip `.git` and `node_modules` always, and whatever a `.gitignore` excludes: the ones
 * of the start directory's ancestors and of every directory walked, each applying to its own subtree
 * (the `ignore` package implements git's rules). A `.gitignore` that is a link or not a file is not read.
 *
 * What Palimpsest keeps (core's isReservedPath: `.palimpsest`, publication files, the root's reserved set)
 * is never yielded nor entered, in any walk: it is not listed, not searched, not counted against a cap.
 */

export type ListedType = 'file' | 'directory' | 'symlink';

export interface ListedEntry {
  /** Relative to the workspace root, components joined by `/`. */
  path: string;
  type: ListedType;
  /** Bytes, for files. */
  size?: number;
}

/** An entry as the walk yields it: `dirFd` holds the entry's directory, open until the walk moves on. */
export interface WalkedEntry extends ListedEntry {
  /** The path relative to the start directory (what a glob is matched against). */
  relative: string;
  name: string;
  dirFd: number;
}

export interface WalkOptions {
  recursive: boolean;
  /** picomatch glob, matched against the path relative to the start directory (basename when it has no `/`). */
  glob?: string;
  /** Whether files are lstat'd for their size (default true); grep, which opens every file anyway, skips it. */
  sizes?: boolean;
}

export type WalkStart =
  | { kind: 'walk'; path: string; entries: Generator<WalkedEntry, void, void> }
  | { kind: 'refused'; refusal: WorkspacePathRefusal };

const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

interface Rules {
  /** The directory the rules were read in, relative to the root ('' for the root), with a trailing `/`. */
  base: string;
  rules: ParsedRules;
}

/** A .gitignore's rules, parsed, and the answers they gave, by path. */
interface ParsedRules {
  text: string;
  ignore: Ignore;
  answers: Map<string, boolean>;
}

/**
 * Parsed rules by their text, the most recently used last: a walk that meets the same .gitignore again
 * (the next grep or listing of the tree) finds most of its answers already given, a lookup instead of a
 * match of every rule. Bounded: RULES_KEPT texts of at most RULES_TEXT_CHARS; rules that gave
 * RULES_PATHS answers are no longer kept (the walk using them goes on with them, the next parses afresh).
 */
const RULES_KEPT = 8;
const RULES_TEXT_CHARS = 64 * 1024;
const RULES_PATHS = 20_000;
const parsedRules = new Map<string, ParsedRules>();

function rulesOf(text: string): ParsedRules {
  const rules = parsedRules.get(text) ?? { text, ignore: ignore().add(text), answers: new Map<string, boolean>() };
  parsedRules.delete(text);
  if (text.length > RULES_TEXT_CHARS) return rules;
  parsedRules.set(text, rules);
  if (parsedRules.size > RULES_KEPT) parsedRules.delete(parsedRules.keys().next().value!);
  return rules;
}

/** Whether `rules` ignore `path` (relative to their directory; a directory's with a trailing `/`). */
function ignoredBy(rules: ParsedRules, path: string): boolean {
  let answer = rules.answers.get(path);
  if (answer !== undefined) return answer;
  answer = rules.ignore.ignores(path);
  if (rules.answers.size < RULES_PATHS) rules.answers.set(path, answer);
  else if (parsedRules.get(rules.text) === rules) parsedRules.delete(rules.text);
  return answer;
}

/** The start directory's components: `path` undefined is the root; anything else follows the path rules (`.`, `src/`, `a/..` included). */
function startComponents(path: string | undefined, reserved: readonly ReservedPath[]): { kind: 'valid'; components: string[] } | { kind: 'refused'; refusal: WorkspacePathRefusal } {
  if (path === undefined) return { kind: 'valid', components: [] };
  const check = checkWorkspaceAccess(path, { access: 'read', reserved, directory: true });
  return check.kind === 'refused' ? check : { kind: 'valid', components: [...check.value.components] };
}

/** The .gitignore in the directory `dirFd` holds, or null (absent, a link, not a file, not readable text). */
function readRules(root: WorkspaceRoot, dirFd: number, base: string): Rules | null {
  const opened = openNode(root.handlePath(dirFd, '.gitignore'), 'file', { shown: JSON.stringify(`${base}.gitignore`) });
  if (opened.kind !== 'opened') return null;
  try {
    return { base, rules: rulesOf(readFileSync(opened.fd, 'utf8')) };
  } finally {
    closeSync(opened.fd);
  }
}

/** The .gitignore files of the root and of each ancestor of the start directory (the start's own is read by the walk). */
function ancestorRules(root: WorkspaceRoot, components: string[]): Rules[] {
  const found: Rules[] = [];
  for (let depth = 0; depth < components.length; depth++) {
    const dir = walkDirectories(root, components.slice(0, depth), { createParents: false });
    if (dir.kind !== 'opened') continue;
    try {
      const rules = readRules(root, dir.fd, depth === 0 ? '' : `${components.slice(0, depth).join('/')}/`);
      if (rules) found.push(rules);
    } finally {
      closeSync(dir.fd);
    }
  }
  return found;
}

function ignored(stack: readonly Rules[], path: string, isDirectory: boolean): boolean {
  return stack.some(({ base, rules }) => path.startsWith(base) && ignoredBy(rules, path.slice(base.length) + (isDirectory ? '/' : '')));
}

const typeOf = (d: Dirent): ListedType | null => (d.isSymbolicLink() ? 'symlink' : d.isDirectory() ? 'directory' : d.isFile() ? 'file' : null);

/**
 * Start a walk of the directory `path` (the root when undefined or '.'): a refusal when the path breaks
 * the rules or does not name a directory reached without links, else a generator of its entries.
 */
export function walkWorkspace(root: WorkspaceRoot, path: string | undefined, opts: WalkOptions): WalkStart {
  const start = startComponents(path, root.reserved);
  if (start.kind === 'refused') return start;
  const dir = walkDirectories(root, start.components, { createParents: false });
  if (dir.kind === 'refused') return dir;
  const matches = globMatcher(opts.glob);
  const startPath = start.components.join('/');
  const stack = opts.recursive ? ancestorRules(root, start.components) : [];
  return { kind: 'walk', path: startPath === '' ? '.' : startPath, entries: walkFrom(root, dir.fd, startPath, { ...opts, matches, stack }) };
}

const globMatcher = (glob: string | undefined): ((relative: string) => boolean) =>
  glob === undefined ? () => true : picomatch(glob, { dot: true, basename: !glob.includes('/') });

/**
 * A listing of `path` when it names a regular file rather than a directory (as `ls` lists a file): that
 * file alone, with its size (stat'd, never read), when the glob matches its name; null when `path` is no
 * file either (the directory walk's refusal stands).
 */
export function listedFile(root: WorkspaceRoot, path: string, glob: string | undefined): { path: string; entries: ListedEntry[] } | null {
  const file = readWorkspaceFileUpTo(root, path, 0);
  if (file.kind === 'refused') return null;
  const name = file.path.slice(file.path.lastIndexOf('/') + 1);
  return { path: file.path, entries: globMatcher(glob)(name) ? [{ path: file.path, type: 'file', size: file.size }] : [] };
}

interface Walk extends WalkOptions {
  matches: (relative: string) => boolean;
  stack: Rules[];
}

function* walkFrom(root: WorkspaceRoot, startFd: number, startPath: string, walk: Walk): Generator<WalkedEntry, void, void> {
  try {
    yield* walkDirectory(root, startFd, startPath, '', walk);
  } finally {
    closeSync(startFd);
  }
}

function* walkDirectory(root: WorkspaceRoot, dirFd: number, dirPath: string, dirRelative: string, walk: Walk): Generator<WalkedEntry, void, void> {
  const base = dirPath === '' ? '' : `${dirPath}/`;
  const own = walk.recursive ? readRules(root, dirFd, base) : null;
  if (own) walk.stack.push(own);
  try {
    const names = readdirSync(root.handlePath(dirFd, '.'), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const dirent of names) {
      const type = typeOf(dirent);
      if (type === null) continue; // FIFOs, sockets, devices: not files an agent reads
      const path = base + dirent.name;
      if (isReservedPath(path, dirent.name, root.reserved)) continue;
      if (walk.recursive && (ALWAYS_SKIPPED.has(dirent.name) || ignored(walk.stack, path, type === 'directory'))) continue;
      const relative = dirRelative === '' ? dirent.name : `${dirRelative}/${dirent.name}`;
      if (walk.matches(relative)) {
        const size = type === 'file' && walk.sizes !== false ? sizeOf(root, dirFd, dirent.name) : undefined;
        if (type !== 'file' || size !== undefined || walk.sizes === false) yield { path, relative, name: dirent.name, type, ...(size === undefined ? {} : { size }), dirFd };
      }
      if (type === 'directory' && walk.recursive) yield* walkChild(root, dirFd, dirent.name, path, relative, walk);
    }
  } finally {
    if (own) walk.stack.pop();
  }
}

function* walkChild(root: WorkspaceRoot, dirFd: number, name: string, path: string, relative: string, walk: Walk): Generator<WalkedEntry, void, void> {
  const child = openNode(root.handlePath(dirFd, name), 'directory', { shown: JSON.stringify(path) });
  if (child.kind !== 'opened') return; // replaced by a link or removed since it was listed: not entered
  try {
    yield* walkDirectory(root, child.fd, path, relative, walk);
  } finally {
    closeSync(child.fd);
  }
}

/** What a cache of a file's contents keys on: it changes when the file is written or replaced. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ino: number;
}

/**
 * The stamp of a file the walk yields, read while the walk is at it (through its directory's handle: no
 * link followed on the way), or null when it is gone or no longer a file.
 */
export function fileStamp(root: WorkspaceRoot, entry: WalkedEntry): FileStamp | null {
  return stampIn(root, entry.dirFd, entry.name);
}

/** The stamp of `name` in `dirFd` when it is a file (lstat: never a link), else null. */
function stampIn(root: WorkspaceRoot, dirFd: number, name: string): FileStamp | null {
  try {
    const stats = lstatSync(root.handlePath(dirFd, name));
    return stats.isFile() ? { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino } : null;
  } catch {
    return null;
  }
}

/** The size of a file listed in `dirFd`, or undefined when it is gone or no longer a file. */
function sizeOf(root: WorkspaceRoot, dirFd: number, name: string): number | undefined {
  return stampIn(root, dirFd, name)?.size;
}
