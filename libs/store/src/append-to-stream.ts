import type { Sql } from './db';
import { StreamVersionConflictError } from './errors';
import type { NewEvent } from './stored-event';

/** The channel appendToStream notifies by default; the payload is AppendNotification as JSON. */
export const EVENTS_CHANNEL = 'palimpsest_events';

export interface AppendNotification {
  stream_id: string;
  /** The last (highest) global_position this append wrote. */
  global_position: number;
  stream_version: number;
}

export interface AppendResult {
  /** global_position of each event, in the order given. */
  positions: number[];
  /** The stream's version after this append: pass it as expectedVersion next time. */
  nextExpectedVersion: number;
}

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
 * Store-internal: where one append sits in its statement: its CTE names end in `tag` and its own
 * parameters are $base+1…$base+4 (several appends share one statement in appendGuardedBatch).
 */
export interface AppendSlot {
  tag: string;
  base: number;
}

/** The slot of a statement holding one append: plain CTE names, parameters from $1. */
export const ONLY_APPEND: AppendSlot = { tag: '', base: 0 };

/** The CTE of a slot's append whose rows (global_position, stream_version) its alongside writes read. */
export const insertedCte = (slot: AppendSlot): string => `inserted${slot.tag}`;

/** What a slot's riding writes are told (see Placement). */
export const placementOf = (slot: AppendSlot): Placement => ({ paramOffset: slot.base + APPEND_PARAM_COUNT, inserted: insertedCte(slot) });

/**
 * The CTEs of one append: checks that the stream is at `expectedVersion` (0 = new stream), inserts
 * every event with versions expectedVersion+1…, queues a NOTIFY (delivered on commit) unless the caller
 * sends its wake-up after commit (notify false, see WakeNotifier), and carries the alongside writes.
 * With a guard every refusal raises (palimpsest_expect) instead of inserting nothing: outside a
 * transaction block the alongside writes would otherwise commit without their event.
 */
export function appendCtes(alongside: string[], notify: boolean, guard: string | null, slot: AppendSlot): string {
  const $ = (n: number) => `$${slot.base + n}`;
  const t = slot.tag;
  const inserted = insertedCte(slot);
  const atVersion = `(SELECT coalesce(max(stream_version), 0) FROM events WHERE stream_id = ${$(1)}::text) = ${$(3)}::bigint`;
  return `${guard ? `guarded${t} AS MATERIALIZED (${guard}),\n` : ''}input${t} AS (
  SELECT e.value AS event, e.ordinality AS ord
  FROM jsonb_array_elements(${$(2)}::text::jsonb) WITH ORDINALITY AS e
),
${inserted} AS (
  INSERT INTO events (stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at)
  SELECT ${$(1)}::text,
         ${$(3)}::bigint + input${t}.ord,
         input${t}.event ->> 'type',
         (input${t}.event ->> 'schemaVersion')::integer,
         input${t}.event -> 'data',
         coalesce(input${t}.event -> 'metadata', '{}'::jsonb),
         (input${t}.event ->> 'recordedAt')::timestamptz
  FROM input${t}
  WHERE ${guard ? `palimpsest_expect(EXISTS (SELECT 1 FROM guarded${t}) AND ${atVersion}, 'stream moved: the guarded row changed')` : atVersion}
  ORDER BY input${t}.ord
  RETURNING global_position, stream_version
),
notified${t} AS (
  -- Without NOTIFY the CTE stays, as concat(): $4 must still be referenced (the alongside writes number
  -- their parameters from $5), and PostgreSQL refuses a parameter it cannot type.
  SELECT ${notify ? 'pg_notify' : 'concat'}(${$(4)}::text, json_build_object(
           'stream_id', ${$(1)}::text,
           'global_position', max(global_position),
           'stream_version', max(stream_version))::text) AS sent
  FROM ${inserted}
  HAVING count(*) > 0
)${alongside.map((cte, i) => `,\nalongside${t}_${i} AS (${cte})`).join('')}`;
}

/**
 * One statement, one round trip. Two writers racing on one version: the unique (stream_id,
 * stream_version) index lets one win and the other gets StreamVersionConflictError, as does a writer
 * whose expectedVersion is stale. Run it inside a transaction when other writes must commit with the events.
 */
const appendSql = (alongside: string[], notify: boolean, guard: string | null) => `
WITH ${appendCtes(alongside, notify, guard, ONLY_APPEND)}
SELECT inserted.global_position, inserted.stream_version
FROM inserted CROSS JOIN notified
ORDER BY inserted.stream_version`;

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

/** Parameters the append itself uses ($1…$4). */
const APPEND_PARAM_COUNT = 4;

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

export interface AppendOptions {
  /** NOTIFY channel; null sends none (the caller wakes listeners after commit). */
  notifyChannel?: string | null;
  alongside?: RidingWrites;
  guard?: GuardAt;
}

/** A spec's riding writes and guard, numbered for `slot`. */
export function placeAppend(spec: Pick<AppendSpec, 'alongside' | 'guard'>, slot: AppendSlot): { alongside: AlongsideWrites; guard: AppendGuard | null } {
  const at = placementOf(slot);
  const alongside = spec.alongside?.(at) ?? { ctes: [], values: [] };
  return { alongside, guard: spec.guard?.(at.paramOffset + alongside.values.length) ?? null };
}

/** The append's own parameters, $1…$4 of its slot. */
export function appendValues(streamId: string, expectedVersion: number, events: NewEvent[], channel: string): unknown[] {
  if (!Number.isSafeInteger(expectedVersion) || expectedVersion < 0) {
    throw new RangeError(`expectedVersion must be a non-negative integer, got ${expectedVersion}`);
  }
  const payload = JSON.stringify(
    events.map((event) => ({
      type: event.type,
      schemaVersion: event.schemaVersion,
      data: event.data === undefined ? null : event.data,
      metadata: event.metadata ?? {},
      recordedAt: event.recordedAt,
    })),
  );
  return [streamId, payload, expectedVersion, channel];
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
