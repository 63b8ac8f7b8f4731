import { GitError, gitText } from './git-command';
import { ATTEMPT_TRAILER, trailerValues } from './git-trailers';

/** A commit reachable from a revision, with its trailers (key → values). */
export interface TrailerCommit {
  commit: string;
  trailers: Map<string, string[]>;
}

const FIELD = '\u001f';
const RECORD = '\u001e';

/** The commits reachable from `rev` (newest first, at most `limit`), each with its trailers; none when `rev` does not resolve (an unborn branch). */
export async function trailerCommits(top: string, rev = 'HEAD', limit?: number): Promise<TrailerCommit[]> {
  let out: string;
  try {
    out = await gitText(top, ['log', ...(limit ? [`-n${limit}`] : []), `--format=%H${FIELD}%(trailers:only,unfold)${RECORD}`, rev, '--']);
  } catch (error) {
    if (error instanceof GitError && (await unborn(top, rev))) return [];
    throw error;
  }
  return out
    .split(RECORD)
    .map((r) => r.trim())
    .filter(Boolean)
    .map((r) => {
      const [commit, trailers] = r.split(FIELD);
      return { commit: commit!.trim(), trailers: trailerValues(trailers ?? '') };
    });
}

/** The attempts the latest `limit` commits of HEAD publish: what a reactor re-run after a crash must not publish again. */
export async function recentAttemptIds(top: string, limit: number): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const c of await trailerCommits(top, 'HEAD', limit)) for (const id of c.trailers.get(ATTEMPT_TRAILER) ?? []) ids.add(id);
  return ids;
}

async function unborn(top: string, rev: string): Promise<boolean> {
  try {
    await gitText(top, ['rev-parse', '-q', '--verify', `${rev}^{commit}`]);
    return false;
  } catch {
    return true;
  }
}
