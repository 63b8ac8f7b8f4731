import { GitError, git, gitText } from './git-command';

/** A work tree as git sees it from a directory inside it: its top and the directory's path under it. */
export interface GitRepo {
  top: string;
  /** '' at the top, else the directory's path under it with a trailing '/' (what workspace paths are prefixed with). */
  prefix: string;
}

/** The repository whose work tree holds `dir`, or null when none does (or `git` is not there). */
export async function openGitRepo(dir: string): Promise<GitRepo | null> {
  try {
    if ((await gitText(dir, ['rev-parse', '--is-inside-work-tree'])) !== 'true') return null;
    const top = await gitText(dir, ['rev-parse', '--show-toplevel']);
    const prefix = await gitText(dir, ['rev-parse', '--show-prefix']);
    return { top, prefix };
  } catch {
    return null;
  }
}

/** What HEAD is: the branch it names (or HEAD itself when detached) and its commit (null: unborn). */
export async function headOf(top: string): Promise<{ ref: string; oid: string | null }> {
  let ref = 'HEAD';
  try {
    ref = await gitText(top, ['symbolic-ref', '-q', 'HEAD']);
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
  }
  try {
    return { ref, oid: await gitText(top, ['rev-parse', '-q', '--verify', 'HEAD^{commit}']) };
  } catch (error) {
    if (error instanceof GitError) return { ref, oid: null };
    throw error;
  }
}

/** The blob a commit holds at a path, or null when it holds none there. */
export async function blobAt(top: string, commit: string, path: string): Promise<Buffer | null> {
  try {
    return await git(top, ['cat-file', 'blob', `${commit}:${path}`]);
  } catch (error) {
    if (error instanceof GitError) return null;
    throw error;
  }
}

/** `mode blob` of a path in a tree-ish (null: absent or not a file). */
export async function entryAt(top: string, treeish: string | null, path: string): Promise<{ mode: string; oid: string } | null> {
  if (!treeish) return null;
  const out = await gitText(top, ['ls-tree', '-z', treeish, '--', path]);
  const m = /^(\d+) blob ([0-9a-f]+)\t/.exec(out);
  return m ? { mode: m[1]!, oid: m[2]! } : null;
}

/** The paths a commit changes from its first parent (from nothing for a root commit). */
export async function changedPaths(top: string, commit: string): Promise<string[]> {
  const out = await gitText(top, ['diff-tree', '--no-commit-id', '--root', '-r', '--name-only', '-z', commit]);
  return out.split('\0').filter(Boolean);
}
