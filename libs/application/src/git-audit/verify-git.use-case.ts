import { openCheckpoint, parseVerifierKey } from '@palimpsest/core/audit/checkpoint-note';
import { acceptancesOfAttempt, checkpointsOfSize, fileRecordAt, type LoggedFileRecord } from '@palimpsest/projections/git-commits/git-commits.queries';
import { blobAt, changedPaths, openGitRepo } from '@palimpsest/workspace/git/git-repo';
import { trailerCommits } from '@palimpsest/workspace/git/git-trailer-log';
import { formatRange, parseAttemptTrailers, type AttemptTrailers } from '@palimpsest/workspace/git/git-trailers';
import type { AppContext } from '../app-context';
import { loggedBytesAt } from './published-bytes';

/** What `palimpsest verify --git` found of one commit carrying the attempt trailers. */
export interface GitCommitCheck {
  commit: string;
  attempt_id: string | null;
  ok: boolean;
  /** Why it fails; absent when it verifies. */
  reason?: string;
}

export interface GitVerifyReport {
  ok: boolean;
  repository: string;
  commits: GitCommitCheck[];
}

/**
 * Every commit reachable from HEAD of the repository holding `dir` (the workspace root) that carries the
 * attempt trailers, checked against the log: the attempt accepted exactly the trailer's ranges, the
 * commit changes no other file than theirs, each file's blob is byte for byte the target's text at the range's end as published (in the line endings the log recorded as of the acceptance), and the checkpoint the
 * trailer names is a signed checkpoint of the log whose signature verifies under `verifierKey`.
 */
export async function verifyGitCommits(ctx: AppContext, dir: string, verifierKey: string | null): Promise<GitVerifyReport> {
  const repo = await openGitRepo(dir);
  if (!repo) throw new RangeError(`${dir} is not in a git work tree`);
  const commits: GitCommitCheck[] = [];
  for (const c of await trailerCommits(repo.top)) {
    const parsed = parseAttemptTrailers(c.trailers);
    if (!parsed) continue;
    if (!parsed.ok) {
      commits.push({ commit: c.commit, attempt_id: null, ok: false, reason: parsed.reason });
      continue;
    }
    const reason = await failureOf(ctx, repo.top, repo.prefix, c.commit, parsed.trailers, verifierKey);
    commits.push({ commit: c.commit, attempt_id: parsed.trailers.attemptId, ok: reason === null, ...(reason ? { reason } : {}) });
  }
  return { ok: commits.every((c) => c.ok), repository: repo.top, commits };
}

async function failureOf(ctx: AppContext, top: string, prefix: string, commit: string, t: AttemptTrailers, verifierKey: string | null): Promise<string | null> {
  const logged = await acceptancesOfAttempt(ctx.db, t.attemptId);
  if (logged.length === 0) return `attempt ${t.attemptId} is not an accepted attempt of the log`;
  const inLog = logged.map((a) => formatRange({ targetId: a.target_id, from: a.before_version, to: a.after_version })).sort();
  const inTrailer = t.events.map(formatRange).sort();
  if (inLog.join(' ') !== inTrailer.join(' ')) return `attempt ${t.attemptId} accepted ${inLog.join(', ')} in the log; the trailer says ${inTrailer.join(', ')}`;
  // Each file's path and line endings as the log held them at its acceptance: a record changed later changes nothing here.
  const records = new Map<string, LoggedFileRecord | null>();
  for (const a of logged) records.set(a.target_id, await fileRecordAt(ctx.db, a.target_id, a.global_position));
  const pathOf = (targetId: string) => {
    const binding = records.get(targetId)?.binding;
    return binding ? `${prefix}${binding.path}` : null;
  };
  const named = new Set(t.events.flatMap((r) => pathOf(r.targetId) ?? []));
  const stray = (await changedPaths(top, commit)).filter((p) => !named.has(p));
  if (stray.length > 0) return `the commit changes ${stray.join(', ')}, which no Palimpsest-Events trailer names`;
  for (const range of t.events) {
    const record = records.get(range.targetId);
    const path = pathOf(range.targetId);
    if (!record || !path) return `target ${range.targetId} was bound to no workspace file when the attempt was accepted`;
    const blob = await blobAt(top, commit, path);
    if (!blob) return `${path} is not in the commit`;
    const expected = await loggedBytesAt(ctx, range.targetId, range.to, record);
    if (!blob.equals(expected)) return `${path} differs from the log's text of target ${range.targetId} at version ${range.to}`;
  }
  return t.checkpoint ? checkpointFailure(ctx, t.checkpoint, verifierKey) : null;
}

async function checkpointFailure(ctx: AppContext, named: { size: number; root: string }, verifierKey: string | null): Promise<string | null> {
  const rootHex = Buffer.from(named.root, 'base64').toString('hex');
  const found = (await checkpointsOfSize(ctx.db, named.size)).find((c) => c.root === rootHex);
  if (!found) return `the checkpoint ${named.size} ${named.root} is not a signed checkpoint of the log`;
  if (!verifierKey) return `no verifier key to check the checkpoint ${named.size} against`;
  const key = parseVerifierKey(verifierKey);
  const opened = openCheckpoint(found.note, key.name, key.publicKey);
  if (!opened.ok) return `the checkpoint ${named.size}: ${opened.reason}`;
  if (opened.checkpoint.size !== named.size || opened.checkpoint.root.toString('base64') !== named.root) return `the checkpoint ${named.size}'s signed note states another tree`;
  return null;
}
