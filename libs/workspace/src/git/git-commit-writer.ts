import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitError, gitText } from './git-command';
import { entryAt, headOf } from './git-repo';

/** A file of the commit: its path under the repository's top and the exact bytes it holds. */
export interface CommitFile {
  path: string;
  bytes: Buffer;
}

export interface CommitOptions {
  /** Attempts when HEAD moves between the read and the ref update (a user's concurrent commit). */
  retries?: number;
  /** Called after the commit object is written and before the ref moves: lets a test commit in between. */
  beforeRefUpdate?: () => Promise<void>;
}

interface Entry {
  path: string;
  blob: string;
}

/**
 * Commits `files` on HEAD with git plumbing only: blobs by hash-object (no filters: the bytes as given),
 * a tree from a temporary index filled from HEAD, commit-tree with `message`, and update-ref from the
 * HEAD it was built on, so a commit made meanwhile is never overwritten (the next try builds on it).
 * Then the real index takes each path's new blob where it still held HEAD's, so `git status` stays clean
 * when the working tree matches. The new commit's id.
 */
export async function commitFiles(top: string, files: readonly CommitFile[], message: string, opts: CommitOptions = {}): Promise<string> {
  const entries: Entry[] = [];
  for (const f of files) entries.push({ path: f.path, blob: await gitText(top, ['hash-object', '-w', '--no-filters', '--stdin'], { input: f.bytes }) });
  const retries = opts.retries ?? 5;
  for (let attempt = 1; ; attempt++) {
    const head = await headOf(top);
    const tree = await treeWith(top, head.oid, entries);
    const commit = await gitText(top, ['commit-tree', tree, ...(head.oid ? ['-p', head.oid] : []), '-F', '-'], { input: message, env: await identityOf(top) });
    await opts.beforeRefUpdate?.();
    try {
      await gitText(top, ['update-ref', '-m', 'palimpsest: accepted attempt', head.ref, commit, head.oid ?? '']);
    } catch (error) {
      if (!(error instanceof GitError) || attempt >= retries) throw error;
      continue;
    }
    await stageWhereUnchanged(top, head.oid, entries);
    return commit;
  }
}

/** HEAD's tree with `entries` put in, written from a temporary index (the real one is not touched). */
async function treeWith(top: string, parent: string | null, entries: readonly Entry[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'palimpsest-git-index-'));
  const env = { GIT_INDEX_FILE: join(dir, 'index') };
  try {
    await gitText(top, parent ? ['read-tree', parent] : ['read-tree', '--empty'], { env });
    for (const e of entries) {
      const mode = (await entryAt(top, parent, e.path))?.mode ?? '100644';
      await gitText(top, ['update-index', '--add', '--cacheinfo', `${mode},${e.blob},${e.path}`], { env });
    }
    return await gitText(top, ['write-tree'], { env });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Each path's entry of the real index moves to the new blob when it held what the parent held (or the
 * parent had no such file and the index none either): a change the user staged is left as it is. An
 * index locked by a running git command (a `git status` refreshing it) is tried again a few times, then
 * left; the commit stands either way.
 */
async function stageWhereUnchanged(top: string, parent: string | null, entries: readonly Entry[]): Promise<void> {
  for (const e of entries) {
    try {
      const before = await entryAt(top, parent, e.path);
      const staged = (await gitText(top, ['ls-files', '-s', '-z', '--', e.path])).split('\0').filter(Boolean);
      const stagedOid = staged.length === 1 ? /^\d+ ([0-9a-f]+) 0\t/.exec(staged[0]!)?.[1] ?? null : null;
      const unchanged = before ? stagedOid === before.oid : staged.length === 0;
      if (!unchanged) continue;
      await whileIndexLocked(() => gitText(top, ['update-index', '--add', '--cacheinfo', `${before?.mode ?? '100644'},${e.blob},${e.path}`]));
    } catch (error) {
      if (!(error instanceof GitError)) throw error;
    }
  }
}

/** The repository's configured name and email; Palimpsest's for whichever is unset, so commit-tree never refuses. */
async function identityOf(top: string): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  const fallback = { name: 'Palimpsest', email: 'palimpsest@localhost' };
  for (const key of ['name', 'email'] as const) {
    const upper = key.toUpperCase();
    if (process.env[`GIT_AUTHOR_${upper}`] || (await configured(top, `user.${key}`))) continue;
    env[`GIT_AUTHOR_${upper}`] = env[`GIT_COMMITTER_${upper}`] = fallback[key];
  }
  return env;
}

async function configured(top: string, key: string): Promise<boolean> {
  try {
    return (await gitText(top, ['config', '--get', key])) !== '';
  } catch (error) {
    if (error instanceof GitError) return false;
    throw error;
  }
}

const INDEX_LOCK_TRIES = 10;

/** Runs `write` again while another git process holds index.lock, backing off a little more each time. */
async function whileIndexLocked(write: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await write();
      return;
    } catch (error) {
      if (!(error instanceof GitError) || !error.stderr.includes('index.lock') || attempt >= INDEX_LOCK_TRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt));
    }
  }
}
