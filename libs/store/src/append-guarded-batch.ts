import {
  appendCtes,
  appendValues,
  EVENTS_CHANNEL,
  insertedCte,
  type AlongsideWrites,
  type AppendGuard,
  type AppendResult,
  type AppendSlot,
} from './append-to-stream';
import type { Sql } from './db';
import type { NewEvent } from './stored-event';

/** One guarded append; its alongside writes and guard are numbered for the slot it was built for. */
export interface GuardedAppend {
  streamId: string;
  expectedVersion: number;
  events: NewEvent[];
  alongside: AlongsideWrites;
  guard: AppendGuard;
}

/** Builds one append for a slot of a statement (see AppendSlot). */
export type GuardedAppendBuilder = (slot: AppendSlot) => GuardedAppend;

/** Appends whose shapes are equal make statements with equal text (values are always parameters). */
export function shapeOf(append: GuardedAppend): string {
  return `${append.guard.sql}\n${append.alongside.ctes.join('\n')}`;
}

type Row = { item: number; global_position: number; stream_version: number };

/**
 * Guarded appends to distinct streams in ONE statement outside any transaction block: one round trip
 * and one commit for all of them (PostgreSQL spends more per statement — protocol, executor set-up,
 * commit — than on one submit's rows). All commit or none: a guard that refuses raises and aborts the
 * whole statement without saying which, so the caller retries the appends one by one to learn. No
 * NOTIFY: callers wake listeners after commit. Throws a RangeError before sending anything when the
 * appends cannot share a statement, else whatever the statement threw.
 */
export async function appendGuardedBatch(sql: Sql, builders: GuardedAppendBuilder[]): Promise<AppendResult[]> {
  const ctes: string[] = [];
  const selects: string[] = [];
  const values: unknown[] = [];
  const streams = new Set<string>();
  builders.forEach((build, item) => {
    const slot: AppendSlot = { tag: `_${item}`, base: values.length };
    const append = build(slot);
    if (append.events.length === 0) throw new RangeError('a batched append needs at least one event');
    if (streams.has(append.streamId)) throw new RangeError(`stream ${append.streamId} appears twice in one batch`);
    streams.add(append.streamId);
    ctes.push(appendCtes(append.alongside.ctes, false, append.guard.sql, slot));
    const inserted = insertedCte(slot);
    selects.push(`SELECT ${item} AS item, ${inserted}.global_position, ${inserted}.stream_version FROM ${inserted} CROSS JOIN notified${slot.tag}`);
    values.push(...appendValues(append.streamId, append.expectedVersion, append.events, EVENTS_CHANNEL), ...append.alongside.values, ...append.guard.values);
  });
  const { rows } = await sql.query<Row>(`WITH ${ctes.join(',\n')}\n${selects.join('\nUNION ALL\n')}`, values);
  return builders.map((_, item) => {
    const mine = rows.filter((row) => Number(row.item) === item).sort((a, b) => a.stream_version - b.stream_version);
    // A guard refuses by raising, so this is a defect; the statement committed: not a RangeError, never retried.
    if (mine.length === 0) throw new Error(`batched append ${item} returned no rows`);
    return { positions: mine.map((row) => row.global_position), nextExpectedVersion: mine[mine.length - 1]!.stream_version };
  });
}
