import { execFileSync } from 'node:child_process';

/**
 * Real edits for the scripted file-tools agent: the hunks of a repository's own commits (its .ts and .md
 * files that a commit modified), read from the checkout's .git at bench time. Each file change carries
 * the file before and after the commit and its hunks (git diff -U0), top to bottom.
 */

export interface Hunk {
  /** 1-based first old line; for an insertion (no old lines), the line it goes after (0: the top). */
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
}

export interface FileChange {
  commit: string;
  path: string;
  before: string;
  after: string;
  hunks: Hunk[];
}

const git = (repo: string, ...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

export function hunksOf(diff: string): Hunk[] {
  const hunks: Hunk[] = [];
  for (const line of diff.split('\n')) {
    const m = HEADER.exec(line);
    if (m) hunks.push({ oldStart: +m[1]!, oldCount: m[2] === undefined ? 1 : +m[2], newStart: +m[3]!, newCount: m[4] === undefined ? 1 : +m[4] });
  }
  return hunks;
}

/**
 * The file changes of the `commits` oldest non-merge commits touching .ts or .md files (oldest first: the
 * history is fixed, so every run on any checkout reads the same edits), files under `maxBytes` only.
 */
export function fileChanges(repo: string, commits: number, maxBytes = 256 * 1024): FileChange[] {
  const log = git(repo, 'log', '--reverse', '--no-merges', '--format=%H %P', '--', '*.ts', '*.md').trim().split('\n');
  const changes: FileChange[] = [];
  for (const entry of log.slice(0, commits)) {
    const [commit, parent] = entry.split(' ');
    if (!commit || !parent) continue;
    const paths = git(repo, 'diff-tree', '--no-commit-id', '-r', '--diff-filter=M', '--name-only', parent, commit, '--', '*.ts', '*.md').trim().split('\n').filter(Boolean);
    for (const path of paths) {
      const before = git(repo, 'show', `${parent}:${path}`);
      const after = git(repo, 'show', `${commit}:${path}`);
      if (before.length > maxBytes || after.length > maxBytes || before.includes('\0') || before.includes('\r')) continue;
      const hunks = hunksOf(git(repo, 'diff', '-U0', '--no-color', '--no-ext-diff', parent, commit, '--', path));
      if (hunks.length) changes.push({ commit, path, before, after, hunks });
    }
  }
  return changes;
}

/** Lines with their terminators (the last one may have none). */
export function linesOf(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  return lines.length === 1 && lines[0] === '' ? [] : lines;
}
