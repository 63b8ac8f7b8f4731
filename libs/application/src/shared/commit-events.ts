import type { TargetState } from '@palimpsest/core/target/target.state';
import type { TargetRow } from '@palimpsest/projections/content/target-row.queries';
import { commitTargetEvents, commitTargetOptimistically, type CommitInput, type Committed, type RidingAppend } from '@palimpsest/projections/target-commit';
import type { Sql } from '@palimpsest/store/db';
import type { AppContext } from '../app-context';
import type { Decided } from './target-refusals';

/** The commit of what the decider evaluated on a target row (locked, or this process's head of it). */
export function commitOf(row: TargetRow, outcome: Decided, recordedAt: string, metadata: Record<string, unknown>): CommitInput {
  return {
    targetId: row.target_id,
    streamVersion: row.stream_version,
    previousChunks: row.chunks,
    events: outcome.events,
    stateAfter: outcome.state,
    recordedAt,
    metadata,
    textChange: outcome.hints.textChange,
  };
}

/**
 * Commits one target's decided events inside the transaction it was handed by transactionCommitting;
 * `riders`, other streams' appends (a publication's outcome), commit in the same statement when they can.
 */
export type CommitTargetEvents = (input: CommitInput, riders?: RidingAppend[]) => Promise<Committed>;

/**
 * A transaction that writes target events through `commit`. Once it has committed, and only then,
 * each write's head reaches the cache and its wake-up the listeners (afterCommit); rolled back, none do.
 */
export async function transactionCommitting<T>(ctx: AppContext, fn: (tx: Sql, commit: CommitTargetEvents) => Promise<T>): Promise<T> {
  const written: Committed[] = [];
  const result = await ctx.db.transaction((tx) =>
    fn(tx, async (input, riders) => {
      const done = await commitTargetEvents(tx, input, riders);
      written.push(done);
      return done;
    }),
  );
  for (const done of written) afterCommit(ctx, done);
  return result;
}

/**
 * The optimistic path: one guarded statement (batched under load); null when the locked path must decide
 * again. `unpublished`: refused too when a workspace file publishes the target on acceptance.
 */
export async function commitOptimistically(ctx: AppContext, input: CommitInput, key: string | null, unpublished = false): Promise<Committed | null> {
  const done = await commitTargetOptimistically(ctx.appends, input, key, unpublished);
  if (done) afterCommit(ctx, done);
  return done;
}

/** Once the commit is durable: the cache learns the new head, and listeners get their wake-up. */
function afterCommit(ctx: AppContext, done: Committed): void {
  if (!done.notification) return ctx.wakes.wakeAll(done.riders);
  const { exists, content, ...row } = done.stateAfter as Extract<TargetState, { exists: true }>;
  if (exists) {
    const head = { ...row, stream_version: done.streamVersion, last_position: done.notification.global_position };
    ctx.contents.setCommitted(head, done.chunks, content);
  }
  ctx.wakes.wakeAll([...done.riders, done.notification]);
}
