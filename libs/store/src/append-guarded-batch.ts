import type { AppendSpec } from './append-spec';
import { type AppendResult } from './append-to-stream';
import { appendCtes, insertedCte, insertedRows, ONLY_APPEND, placeAppend, type AppendSlot, type PlacedAppend } from './internal/append-statement';
import { joinSql, sql, raw } from './sql-fragment';
import type { Sql } from './db';
import { StreamVersionConflictError } from './errors';

/** A guarded append: the spec of an optimistic commit (its guard is what makes it safe outside a lock). */
export type GuardedAppendSpec = AppendSpec & { guard: NonNullable<AppendSpec['guard']> };

/** An append as a statement of its own would carry it: its writes and guard placed for ONLY_APPEND. */
export type PlacedAlone = PlacedAppend;

export const placeAlone = (spec: GuardedAppendSpec): PlacedAlone => placeAppend(spec, ONLY_APPEND);

/** Appends whose shapes are equal make statements with equal text (values are always parameters). */
export function shapeOf(alone: PlacedAlone): string {
  return joinSql([alone.guard!, ...alone.alongside], '\n').shape();
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
export async function appendGuardedBatch(sql: Sql, specs: GuardedAppendSpec[]): Promise<AppendResult[]> {
  const results = await appendInOneStatement(sql, specs);
  // A guard refuses by raising, so this is a defect; the statement committed: not a RangeError, never retried.
  return results.map((result, item) => {
    if (!result) throw new Error(`batched append ${item} returned no rows`);
    return result;
  });
}

/**
 * Appends to distinct streams (guarded or not) in ONE statement inside the caller's transaction: what a
 * unit of work that writes several aggregates at once (a publication's outcome and its target's change)
 * sends. An append whose stream moved inserts nothing, and this throws StreamVersionConflictError so the
 * caller's transaction rolls the others back. No NOTIFY: callers wake listeners after commit.
 */
export async function appendTogether(tx: Sql, specs: AppendSpec[]): Promise<AppendResult[]> {
  const results = await appendInOneStatement(tx, specs);
  return results.map((result, item) => {
    if (result) return result;
    throw new StreamVersionConflictError(specs[item]!.streamId, specs[item]!.expectedVersion);
  });
}

async function appendInOneStatement(sql_: Sql, specs: AppendSpec[]): Promise<(AppendResult | null)[]> {
  const ctes = [];
  const selects = [];
  const streams = new Set<string>();
  for (const [item, append] of specs.entries()) {
    const slot: AppendSlot = { tag: `_${item}` };
    if (append.events.length === 0) throw new RangeError('a batched append needs at least one event');
    if (streams.has(append.streamId)) throw new RangeError(`stream ${append.streamId} appears twice in one batch`);
    streams.add(append.streamId);
    ctes.push(appendCtes(placeAppend(append, slot), null));
    const inserted = insertedCte(slot);
    selects.push(sql`SELECT ${raw(String(item))} AS item, ${inserted}.global_position, ${inserted}.stream_version FROM ${insertedRows(slot, null)}`);
  }
  const { text, values } = sql`WITH ${joinSql(ctes, ',\n')}\n${joinSql(selects, '\nUNION ALL\n')}`.render();
  const { rows } = await sql_.query<Row>(text, values);
  return specs.map((_, item) => {
    const mine = rows.filter((row) => Number(row.item) === item).sort((a, b) => a.stream_version - b.stream_version);
    if (mine.length === 0) return null;
    return { positions: mine.map((row) => row.global_position), nextExpectedVersion: mine[mine.length - 1]!.stream_version };
  });
}
