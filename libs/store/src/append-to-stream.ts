import type { Sql } from './db';
import { EVENTS_CHANNEL } from './events-channel';
import type { AppendGuard, GuardAt, RidingWrites } from './append-spec';
import { appendSql, appendValues, ONLY_APPEND, placeAppend } from './internal/append-statement';
import { StreamVersionConflictError } from './errors';
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
  guard?: GuardAt;
}

export async function appendToStream(
  tx: Sql,
  streamId: string,
  expectedVersion: number,
  events: NewEvent[],
  opts: AppendOptions = {},
): Promise<AppendResult> {
  const base = appendValues(streamId, expectedVersion, events, opts.notifyChannel ?? EVENTS_CHANNEL);
  if (events.length === 0) return { positions: [], nextExpectedVersion: expectedVersion };
  let rows: { global_position: number; stream_version: number }[];
  try {
    const { alongside, guard } = placeAppend(opts, ONLY_APPEND);
    const text = appendSql(alongside.ctes, opts.notifyChannel !== null, guard?.sql ?? null);
    ({ rows } = await tx.query(text, [...base, ...alongside.values, ...(guard?.values ?? [])]));
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
function isStreamVersionViolation(error: unknown): boolean {
  const e = error as { code?: unknown; constraint?: unknown } | undefined;
  if (e?.code === '40001' || e?.code === '55P03') return true;
  return e?.code === '23505' && (e.constraint === undefined || e.constraint === 'events_stream_version_unique');
}
