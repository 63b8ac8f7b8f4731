import type { NewEvent } from './stored-event';

/** What one append is made of: the types writers and the store share (the statement text is the store's). */

/**
 * Where an append's riding writes sit in its statement: their parameters are numbered after
 * `paramOffset`, and the new rows' (global_position, stream_version) are read from the CTE named
 * `inserted`. The store chooses it (an append alone, or one of a batch); writers only use it.
 */
export interface Placement {
  paramOffset: number;
  inserted: string;
}

/**
 * Writes that must commit with the events and can ride in the same statement (inline projections):
 * data-modifying statements that may read the Placement's `inserted` CTE, their parameters numbered
 * after its `paramOffset`.
 */
export interface AlongsideWrites {
  ctes: string[];
  values: unknown[];
}

/** The inline projections of an append: the writes that ride with it, wherever the store places it. */
export type RidingWrites = (at: Placement) => AlongsideWrites;

/** An optimistic guard whose parameters are numbered after `paramOffset` (after the riding writes'). */
export type GuardAt = (paramOffset: number) => AppendGuard;

/** One append and everything that commits with it: the unit of work the store runs (alone or batched). */
export interface AppendSpec {
  streamId: string;
  expectedVersion: number;
  events: NewEvent[];
  alongside?: RidingWrites;
  guard?: GuardAt;
}

/**
 * An optimistic append, sent outside any transaction block: `sql` is a SELECT … FOR UPDATE of the row
 * that serializes the stream's writers, returning a row only while that row still shows the state the
 * events were decided on. The lock is taken before any event is inserted; when no row comes back the
 * whole statement aborts (nothing written) and the append throws StreamVersionConflictError.
 * Its parameters are numbered after the alongside writes' own.
 */
export interface AppendGuard {
  sql: string;
  values: unknown[];
}
