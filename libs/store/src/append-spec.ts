import type { SqlFragment } from './sql-fragment';
import type { NewEvent } from './stored-event';

/** What one append is made of: the types writers and the store share (the statement text is the store's). */

/**
 * Where an append's riding writes sit in its statement: the new rows' (global_position, stream_version)
 * are read from the CTE `inserted` names. The store chooses it (an append alone, or one of a batch);
 * writers only use it. Their parameters are values inside their fragments: nothing is numbered here.
 */
export interface Placement {
  inserted: SqlFragment;
}

/**
 * The inline projections of an append: data-modifying statements that commit with the events and ride
 * in the same statement as CTEs, wherever the store places it; they may read the Placement's `inserted`.
 */
export type RidingWrites = (at: Placement) => SqlFragment[];

/**
 * An optimistic guard, for an append sent outside any transaction block: a SELECT (… FOR UPDATE of the
 * row that serializes the stream's writers) returning a row only while that row still shows the state
 * the events were decided on. The lock is taken before any event is inserted; when no row comes back the
 * whole statement aborts (nothing written) and the append throws StreamVersionConflictError.
 */
export type AppendGuard = SqlFragment;

/** One append and everything that commits with it: the unit of work the store runs (alone or batched). */
export interface AppendSpec {
  streamId: string;
  expectedVersion: number;
  events: NewEvent[];
  alongside?: RidingWrites;
  guard?: AppendGuard;
}
