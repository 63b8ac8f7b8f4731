import type { PublicationEvent } from '@palimpsest/core/publication/publication.events';
import { targetStreamId } from '@palimpsest/core/target/target.events';
import type { TargetState } from '@palimpsest/core/target/target.state';
import type { TargetRow } from '@palimpsest/projections/content/target-row.queries';
import { journalAppend, type JournalAt } from '@palimpsest/projections/publications/publication-append';
import { targetAppend, targetGuard, type CommitInput } from '@palimpsest/projections/target-append';
import type { AppendNotification } from '@palimpsest/store/events-channel';
import { StreamVersionConflictError } from '@palimpsest/store/errors';
import type { AppendOptions, Appended, EventAppender, StoreTx, StreamAppend } from '@palimpsest/store/event-store';
import type { AppContext } from '../app-context';
import type { Decided } from './target-refusals';

/**
 * The commits of the aggregates through the store's one append (ctx.store): the store runs the inline
 * projections registered for the events and wakes listeners once each commit is durable; what is left
 * here is the target's process-local head (the content cache), moved only after commit.
 */

export type { CommitInput } from '@palimpsest/projections/target-append';

/** Another stream's append that commits with a target's events (a publication's outcome). */
export type RidingAppend = StreamAppend;

/** What a commit wrote, for the bookkeeping that must wait until it is durable. */
export interface Committed {
  targetId: string;
  streamVersion: number;
  chunks: string[];
  stateAfter: TargetState;
  notification: AppendNotification | null;
}

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
 * A store transaction that writes target events through `commit`. Once it has committed, and only then,
 * each write's head reaches the cache (and, from the store, its wake-up the listeners); rolled back, none do.
 */
export async function transactionCommitting<T>(ctx: AppContext, fn: (tx: StoreTx, commit: CommitTargetEvents) => Promise<T>): Promise<T> {
  const written: Committed[] = [];
  const result = await ctx.store.transaction((tx) =>
    fn(tx, async (input, riders = []) => {
      if (input.events.length === 0) {
        const [first, ...rest] = riders;
        if (first) await tx.append(first.streamId, first.expectedVersion, first.events, { riders: rest });
        return committed(input, [], [...input.previousChunks]);
      }
      const { append, chunks } = targetAppend(input);
      const done = committed(input, (await tx.append(append.streamId, append.expectedVersion, append.events, { riders })).positions, chunks);
      written.push(done);
      return done;
    }),
  );
  for (const done of written) afterCommit(ctx, done);
  return result;
}

/**
 * The optimistic path: one guarded statement (batched under load); null when the locked path must decide
 * again (the row moved, or the write needs more than one statement). `unpublished`: refused too when a
 * workspace file publishes the target on acceptance.
 */
export async function commitOptimistically(ctx: AppContext, input: CommitInput, key: string | null, unpublished = false): Promise<Committed | null> {
  if (input.events.length !== 1) return null;
  const { append, chunks, renumbers } = targetAppend(input);
  if (renumbers) return null;
  let appended: Appended;
  try {
    appended = await ctx.store.append(append.streamId, append.expectedVersion, append.events, { guard: targetGuard(input, key, unpublished) });
  } catch (error) {
    if (error instanceof StreamVersionConflictError) return null;
    throw error;
  }
  const done = committed(input, appended.positions, chunks);
  afterCommit(ctx, done);
  return done;
}

/**
 * Appends decided journal events at the loaded version, through a store transaction or the store itself;
 * returns the journal after. `guard` (one event): refused, nothing is written (StreamVersionConflictError).
 */
export async function commitPublicationEvents(
  appender: EventAppender,
  journalId: string,
  loaded: JournalAt,
  events: PublicationEvent[],
  recordedAt: string,
  metadata: Record<string, unknown>,
  guard?: AppendOptions['guard'],
): Promise<JournalAt> {
  if (events.length === 0) return loaded;
  if (guard && events.length !== 1) throw new RangeError('a guarded journal append carries one event');
  const { append, after } = journalAppend(journalId, loaded, events, recordedAt, metadata);
  // A started journal's outcome commits soon after (or recovery settles it): one wake-up for both.
  const started = events.length === 1 && events[0]!.type === 'PublicationStarted';
  await appender.append(append.streamId, append.expectedVersion, append.events, { guard, wakeWithNext: started });
  return after;
}

function committed(input: CommitInput, positions: number[], chunks: string[]): Committed {
  const last = positions[positions.length - 1];
  const streamVersion = input.streamVersion + positions.length;
  const stream_id = targetStreamId(input.targetId);
  const notification = last === undefined ? null : { stream_id, global_position: last, stream_version: streamVersion };
  return { targetId: input.targetId, streamVersion, chunks, stateAfter: input.stateAfter, notification };
}

/** Once the commit is durable: the cache learns the new head. */
function afterCommit(ctx: AppContext, done: Committed): void {
  if (!done.notification) return;
  const { exists, content, ...row } = done.stateAfter as Extract<TargetState, { exists: true }>;
  if (exists) {
    const head = { ...row, stream_version: done.streamVersion, last_position: done.notification.global_position };
    ctx.contents.setCommitted(head, done.chunks, content);
  }
}
