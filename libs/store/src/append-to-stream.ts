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
 * One statement, one round trip: checks that the stream is at `expectedVersion` (0 = new stream),
 * inserts every event with versions expectedVersion+1…, and queues a NOTIFY (delivered on commit).
 * Two writers racing on one version: the unique (stream_id, stream_version) index lets one win and
 * the other gets StreamVersionConflictError, as does a writer whose expectedVersion is stale.
 * Run it inside a transaction when other writes must commit with the events.
 */
const appendSql = (alongside: string[]) => `
WITH input AS (
  SELECT e.value AS event, e.ordinality AS ord
  FROM jsonb_array_elements($2::text::jsonb) WITH ORDINALITY AS e
),
inserted AS (
  INSERT INTO events (stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at)
  SELECT $1::text,
         $3::bigint + input.ord,
         input.event ->> 'type',
         (input.event ->> 'schemaVersion')::integer,
         input.event -> 'data',
         coalesce(input.event -> 'metadata', '{}'::jsonb),
         (input.event ->> 'recordedAt')::timestamptz
  FROM input
  WHERE (SELECT coalesce(max(stream_version), 0) FROM events WHERE stream_id = $1::text) = $3::bigint
  ORDER BY input.ord
  RETURNING global_position, stream_version
),
notified AS (
  SELECT pg_notify($4::text, json_build_object(
           'stream_id', $1::text,
           'global_position', max(global_position),
           'stream_version', max(stream_version))::text) AS sent
  FROM inserted
  HAVING count(*) > 0
)${alongside.map((cte, i) => `,\nalongside_${i} AS (${cte})`).join('')}
SELECT inserted.global_position, inserted.stream_version
FROM inserted CROSS JOIN notified
ORDER BY inserted.stream_version`;

/**
 * Writes that must commit with the events and can ride in the same statement (read models). Each is a
 * data-modifying statement that may read `inserted` (global_position, stream_version of the new rows);
 * its parameters are numbered after the append's own (from $5, see APPEND_PARAM_COUNT).
 */
export interface AlongsideWrites {
  ctes: string[];
  values: unknown[];
}

/** Parameters the append itself uses ($1…$4). */
export const APPEND_PARAM_COUNT = 4;

export async function appendToStream(
  tx: Sql,
  streamId: string,
  expectedVersion: number,
  events: NewEvent[],
  opts: { notifyChannel?: string; alongside?: AlongsideWrites } = {},
): Promise<AppendResult> {
  if (!Number.isSafeInteger(expectedVersion) || expectedVersion < 0) {
    throw new RangeError(`expectedVersion must be a non-negative integer, got ${expectedVersion}`);
  }
  if (events.length === 0) return { positions: [], nextExpectedVersion: expectedVersion };
  const payload = JSON.stringify(
    events.map((event) => ({
      type: event.type,
      schemaVersion: event.schemaVersion,
      data: event.data === undefined ? null : event.data,
      metadata: event.metadata ?? {},
      recordedAt: event.recordedAt,
    })),
  );
  let rows: { global_position: number; stream_version: number }[];
  try {
    const base = [streamId, payload, expectedVersion, opts.notifyChannel ?? EVENTS_CHANNEL];
    const alongside = opts.alongside ?? { ctes: [], values: [] };
    ({ rows } = await tx.query(appendSql(alongside.ctes), [...base, ...alongside.values]));
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

function isStreamVersionViolation(error: unknown): boolean {
  const e = error as { code?: unknown; constraint?: unknown } | undefined;
  return e?.code === '23505' && (e.constraint === undefined || e.constraint === 'events_stream_version_unique');
}
