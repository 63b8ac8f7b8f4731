import { statSync } from 'node:fs';
import type { ProposalAcceptedV1Data } from '@palimpsest/core/target/target.events';
import { bindingsOf, latestCheckpoint, startAtLogHead, type FileBinding } from '@palimpsest/projections/git-commits/git-commits.queries';
import type { StoredEvent } from '@palimpsest/store/stored-event';
import { commitFiles, type CommitOptions } from '@palimpsest/workspace/git/git-commit-writer';
import { openGitRepo, type GitRepo } from '@palimpsest/workspace/git/git-repo';
import { recentAttemptIds } from '@palimpsest/workspace/git/git-trailer-log';
import { attemptMessage, type AttemptTrailers } from '@palimpsest/workspace/git/git-trailers';
import type { AppContext } from '../app-context';
import { publishedBytesAt } from './published-bytes';

/**
 * The git reactor, a processor of the projector's log consumer (PALIMPSEST_GIT_COMMITS=attempt): each
 * accepted attempt of a target bound to a file under the workspace root becomes one commit on the
 * repository's HEAD, with the file's bytes at the accepted version as the log gives them and the
 * trailers written here (docs/audit-log.md, "Git commits"). At least once, like the relay: its
 * checkpoint moves after its commits, and a batch handled again skips the attempts HEAD's recent
 * commits already publish.
 */

export const GIT_COMMITS_PROCESSOR = 'git_commits';

/** How far back HEAD's history is read for attempts already published (more than a batch can hold). */
const PUBLISHED_WINDOW = 2_000;

export interface GitCommitsBatch {
  commit(): Promise<void>;
}

interface AttemptGroup {
  attemptId: string;
  acceptances: { event: StoredEvent; data: ProposalAcceptedV1Data }[];
}

export function gitCommitsProcessor(ctx: AppContext, workspaceRoot: string, opts: CommitOptions = {}) {
  let repo: GitRepo | null = null;
  let root: { dev: string; ino: string } | null = null;
  // The attempts HEAD publishes: read from its history once, then kept as this process commits more.
  let published: Set<string> | null = null;
  return {
    name: GIT_COMMITS_PROCESSOR,
    kind: 'relay' as const,
    /**
     * A workspace root outside any git work tree refuses to start: the operator asked for commits. The
     * first start begins at the log's head: the attempts accepted before the opt-in stay uncommitted.
     */
    async open(): Promise<void> {
      repo = await openGitRepo(workspaceRoot);
      if (!repo) throw new Error(`PALIMPSEST_GIT_COMMITS: the workspace root ${workspaceRoot} is not in a git work tree`);
      const stats = statSync(workspaceRoot);
      root = { dev: stats.dev.toString(), ino: stats.ino.toString() };
      await startAtLogHead(ctx.db, GIT_COMMITS_PROCESSOR);
    },
    async handle(events: readonly StoredEvent[], batch: GitCommitsBatch): Promise<void> {
      if (!repo) await this.open();
      const groups = attemptGroups(events);
      if (groups.length > 0) await publish(ctx, repo!, root!, groups, opts, async () => (published ??= await recentAttemptIds(repo!.top, PUBLISHED_WINDOW)));
      await batch.commit();
    },
  };
}

/** Accepted attempts in log order, each with its acceptances (an attempt accepts on one target, possibly in one event). */
function attemptGroups(events: readonly StoredEvent[]): AttemptGroup[] {
  const groups = new Map<string, AttemptGroup>();
  for (const event of events) {
    if (event.type !== 'ProposalAccepted') continue;
    const data = event.data as ProposalAcceptedV1Data;
    const group = groups.get(data.attempt_id) ?? { attemptId: data.attempt_id, acceptances: [] };
    group.acceptances.push({ event, data });
    groups.set(data.attempt_id, group);
  }
  return [...groups.values()];
}

async function publish(
  ctx: AppContext,
  repo: GitRepo,
  root: { dev: string; ino: string },
  groups: AttemptGroup[],
  opts: CommitOptions,
  publishedAttempts: () => Promise<Set<string>>,
): Promise<void> {
  const bindings = await bindingsOf(ctx.db, [...new Set(groups.flatMap((g) => g.acceptances.map((a) => a.data.target_id)))]);
  const under = (b: FileBinding | undefined): b is FileBinding => !!b && b.root_dev === root.dev && b.root_ino === root.ino;
  const toPublish = groups.map((g) => ({ ...g, bound: g.acceptances.filter((a) => under(bindings.get(a.data.target_id))) })).filter((g) => g.bound.length > 0);
  if (toPublish.length === 0) return;
  const published = await publishedAttempts();
  const checkpoint = await latestCheckpoint(ctx.db);
  for (const { attemptId, bound } of toPublish) {
    if (published.has(attemptId)) continue;
    const files = [];
    for (const a of bound) {
      const binding = bindings.get(a.data.target_id)!;
      files.push({ path: `${repo.prefix}${binding.path}`, bytes: await publishedBytesAt(ctx, binding, a.data.after_version) });
    }
    const trailers: AttemptTrailers = {
      attemptId,
      events: bound.map((a) => ({ targetId: a.data.target_id, from: a.data.before_version, to: a.data.after_version })),
      checkpoint: checkpoint ? { size: Number(checkpoint.size), root: Buffer.from(checkpoint.root, 'hex').toString('base64') } : null,
      client: clientOf(bound[0]!.event),
    };
    await commitFiles(repo.top, files, attemptMessage(subjectOf(bound[0]!.data, files[0]!.path), trailers), opts);
    published.add(attemptId);
  }
}

/** The submission's intent when it stated one (one line, cut short), else what the commit publishes. */
function subjectOf(data: ProposalAcceptedV1Data, path: string): string {
  try {
    const intent = (JSON.parse(data.content) as { intent?: unknown }).intent;
    if (typeof intent === 'string' && intent.trim()) return [...intent.trim()].slice(0, 100).join('');
  } catch {
    // Invalid-input evidence is not JSON; the path says enough.
  }
  return `Palimpsest: edit ${path}`;
}

function clientOf(event: StoredEvent): string | null {
  const client = event.metadata?.client;
  return typeof client === 'string' && client ? client : null;
}
