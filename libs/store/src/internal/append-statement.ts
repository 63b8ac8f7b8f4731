import type { AlongsideWrites, AppendGuard, AppendSpec, Placement } from '../append-spec';
import type { NewEvent } from '../stored-event';

/**
 * How appends become statement text: slots, CTE names and parameter numbering. Private to libs/store
 * (dependency-cruiser refuses any other importer): writers see only a Placement.
 */

/** Parameters the append itself uses ($1…$4). */
export const APPEND_PARAM_COUNT = 4;

/**
 * Where one append sits in its statement: its CTE names end in `tag` and its own
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
export const appendSql = (alongside: string[], notify: boolean, guard: string | null) => `
WITH ${appendCtes(alongside, notify, guard, ONLY_APPEND)}
SELECT inserted.global_position, inserted.stream_version
FROM inserted CROSS JOIN notified
ORDER BY inserted.stream_version`;

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

