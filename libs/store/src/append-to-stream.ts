import type { Sql } from './db';
import { EVENTS_CHANNEL } from './events-channel';
import type { AppendGuard, RidingWrites } from './append-spec';
import { appendSql, checkedVersion, ONLY_APPEND, placeAppend } from './internal/append-statement';
import { StreamVersionConflictError } from './errors';
import { isStreamVersionConstraint } from './log-partitions';
import type { NewEvent } from './stored-event';

export interface AppendResult {
  /** global_position of each event, in the order given. */
  positions: number[];
  /** The stream's version after this append: pass it as expectedVersion next time. */
  nextExpectedVersion: number;
}

export interface AppendOptions {
  /** NOTIFY channel; null sends none (the caller wakes listeners after commit). */
  notifyChannel?: string | null;
  alongside?: RidingWrites;
  guard?: AppendGuard;
}

export async function appendToStream(
  tx: Sql,
  streamId: string,
  expectedVersion: number,
  events: NewEvent[],
  opts: AppendOptions = {},
): Promise<AppendResult> {
  checkedVersion(expectedVersion);
  if (events.length === 0) return { positions: [], nextExpectedVersion: expectedVersion };
  let rows: { global_position: number; stream_version: number }[];
  try {
    const placed = placeAppend({ streamId, expectedVersion, events, alongside: opts.alongside, guard: opts.guard }, ONLY_APPEND);
    const { text, values } = appendSql(placed, opts.notifyChannel === undefined ? EVENTS_CHANNEL : opts.notifyChannel).render();
    ({ rows } = await tx.query(text, values));
  } catch (error) {
    if (isStreamVersionViolation(error)) {
      throw new StreamVersionConflictError(streamId, expectedVersion, { cause: error });
    }
    throw error;
  }
  if (rows.length === 0) throw new StreamVersionConflictError(streamId, expectedVersion);
  return {
    positions: rows.map((row) => row.global_position),
    nextExpectedVersion: rows[rows.length - 1]!.stream_version,
  };
}

/**
 * A racing writer took the version (unique index), or an optimistic guard found its row moved (40001)
 * or held by another writer (55P03, NOWAIT).
 */
export function isStreamVersionViolation(error: unknown): boolean {
  const e = error as { code?: unknown; constraint?: unknown } | undefined;
  if (e?.code === '40001' || e?.code === '55P03') return true;
  return e?.code === '23505' && (e.constraint === undefined || isStreamVersionConstraint(e.constraint));
}
