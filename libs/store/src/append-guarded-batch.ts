import type { AppendSpec } from './append-spec';
import { type AppendResult } from './append-to-stream';
import { EVENTS_CHANNEL } from './events-channel';
import { appendCtes, appendValues, insertedCte, ONLY_APPEND, placeAppend, type AppendSlot } from './internal/append-statement';
import type { Sql } from './db';
import { StreamVersionConflictError } from './errors';

/** A guarded append: the spec of an optimistic commit (its guard is what makes it safe outside a lock). */
export type GuardedAppendSpec = AppendSpec & { guard: NonNullable<AppendSpec['guard']> };

/** An append as a statement of its own would carry it: its writes and guard numbered for ONLY_APPEND. */
export type PlacedAlone = ReturnType<typeof placeAppend>;

export const placeAlone = (spec: GuardedAppendSpec): PlacedAlone => placeAppend(spec, ONLY_APPEND);

/** Appends whose shapes are equal make statements with equal text (values are always parameters). */
export function shapeOf(alone: PlacedAlone): string {
  return `${alone.guard!.sql}\n${alone.alongside.ctes.join('\n')}`;
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

async function appendInOneStatement(sql: Sql, specs: AppendSpec[]): Promise<(AppendResult | null)[]> {
  const ctes: string[] = [];
  const selects: string[] = [];
  const values: unknown[] = [];
  const streams = new Set<string>();
  specs.forEach((append, item) => {
    const slot: AppendSlot = { tag: `_${item}`, base: values.length };
    const { alongside, guard } = placeAppend(append, slot);
    if (append.events.length === 0) throw new RangeError('a batched append needs at least one event');
    if (streams.has(append.streamId)) throw new RangeError(`stream ${append.streamId} appears twice in one batch`);
    streams.add(append.streamId);
    ctes.push(appendCtes(alongside.ctes, false, guard?.sql ?? null, slot));
    const inserted = insertedCte(slot);
    selects.push(`SELECT ${item} AS item, ${inserted}.global_position, ${inserted}.stream_version FROM ${inserted} CROSS JOIN notified${slot.tag}`);
    values.push(...appendValues(append.streamId, append.expectedVersion, append.events, EVENTS_CHANNEL), ...alongside.values, ...(guard?.values ?? []));
  });
  const { rows } = await sql.query<Row>(`WITH ${ctes.join(',\n')}\n${selects.join('\nUNION ALL\n')}`, values);
  return specs.map((_, item) => {
    const mine = rows.filter((row) => Number(row.item) === item).sort((a, b) => a.stream_version - b.stream_version);
    if (mine.length === 0) return null;
    return { positions: mine.map((row) => row.global_position), nextExpectedVersion: mine[mine.length - 1]!.stream_version };
  });
}
