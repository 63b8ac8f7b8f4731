/**
 * A command line as the shell parser resolved it: either a plain argv (one simple command, every word
 * a literal after quote removal) or the first shell construct that keeps it from being one.
 */
export type ParsedCommandLine = { kind: 'argv'; argv: string[] } | { kind: 'shell'; construct: string };

/** The port of the shell parser (the adapter lives in the workspace library; parsing is synchronous once loaded). */
export interface ShellParser {
  parse(line: string): ParsedCommandLine;
}

/** Lexical normalization of a POSIX path: repeated slashes and `.` fold, `..` climbs, no trailing slash. */
export function normalizePath(path: string): string {
  const absolute = path.startsWith('/');
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length && out[out.length - 1] !== '..') out.pop();
    else if (part !== '..' || !absolute) out.push(part);
  }
  const joined = out.join('/');
  return absolute ? `/${joined}` : joined || '.';
}

/** The name a program is known by, whatever path or case spells it: `/usr/bin/RM.exe` → `rm`. */
export function programName(word: string): string {
  const base = word.slice(word.lastIndexOf('/') + 1).toLowerCase();
  return base.endsWith('.exe') ? base.slice(0, -4) : base;
}

/** A program word naming a file in the workspace (`./x`, `bin/x`), as a normalized relative path; null otherwise. */
export function workspaceProgramPath(word: string): string | null {
  if (!word.includes('/') || word.startsWith('/')) return null;
  const path = normalizePath(word);
  return path.startsWith('..') ? null : path;
}

/** What decided against a line: the rule's name (`git: -c`, `shell: pipe`) and a sentence for the caller. */
export interface PolicyHit {
  rule: string;
  reason: string;
}

/** A table entry by a program's name, never an inherited property (`constructor`, `__proto__`). */
export function lookup<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
