import type { AppendGuard, AppendSpec, Placement } from '../append-spec';
import { joinSql, raw, sql, type SqlFragment } from '../sql-fragment';
import { digestOfText, eventCanonicalTextOf } from '@palimpsest/core/audit/event-chain';
import { canonicalJson } from '@palimpsest/core/transaction/record-codec';
import type { NewEvent } from '../stored-event';

/**
 * How appends become statement text: slots and CTE names. Private to libs/store (dependency-cruiser
 * refuses any other importer): writers see only a Placement. Parameters travel inside the fragments.
 */

/** Where one append sits in its statement: its CTE names end in `tag` (several appends share one statement in a batch). */
export interface AppendSlot {
  tag: string;
}

/** The slot of a statement holding one append: plain CTE names. */
export const ONLY_APPEND: AppendSlot = { tag: '' };

/** The CTE of a slot's append whose rows (global_position, stream_version) its alongside writes read. */
export const insertedCte = (slot: AppendSlot): SqlFragment => raw(`inserted${slot.tag}`);

/** What a slot's riding writes are told (see Placement). */
export const placementOf = (slot: AppendSlot): Placement => ({ inserted: insertedCte(slot) });

/** What one append puts in its statement, its riding writes and guard placed for its slot. */
export interface PlacedAppend {
  spec: Pick<AppendSpec, 'streamId' | 'expectedVersion' | 'events'>;
  alongside: SqlFragment[];
  guard: AppendGuard | null;
  slot: AppendSlot;
}

/**
 * The CTEs of one append: checks that the stream is at `expectedVersion` (0 = new stream), inserts
 * every event with versions expectedVersion+1…, queues a NOTIFY on `channel` (delivered on commit)
 * unless it is null (the caller sends its wake-up after commit, see WakeNotifier), and carries the
 * alongside writes. With a guard every refusal raises (palimpsest_expect) instead of inserting nothing:
 * outside a transaction block the alongside writes would otherwise commit without their event.
 */
export function appendCtes(placed: PlacedAppend, channel: string | null): SqlFragment {
  const { spec, alongside, guard, slot } = placed;
  const t = raw(slot.tag);
  const inserted = insertedCte(slot);
  const stream = sql`${spec.streamId}::text`;
  const expected = sql`${checkedVersion(spec.expectedVersion)}::bigint`;
  // A stream whose events are all archived goes on from its archived head (read only then: coalesce is lazy).
  const atVersion = sql`(SELECT coalesce(max(stream_version), (SELECT last_version FROM archived_streams WHERE stream_id = ${stream}), 0) FROM events WHERE stream_id = ${stream}) = ${expected}`;
  const where = guard ? sql`palimpsest_expect(EXISTS (SELECT 1 FROM guarded${t}) AND ${atVersion}, 'stream moved: the guarded row changed')` : atVersion;
  // The stream id is the statement's first parameter ($1 of a lone append), as it always was: the input CTE names it first.
  const ctes = [
    sql`input${t} AS (
  SELECT ${stream} AS stream_id, e.value AS event, e.ordinality AS ord
  FROM jsonb_array_elements(${payloadOf(spec)}::text::jsonb) WITH ORDINALITY AS e
)`,
    ...(guard ? [sql`guarded${t} AS MATERIALIZED (${guard})`] : []),
    sql`links${t} AS (${linksOf(spec, t)})`,
    sql`${inserted} AS (
  INSERT INTO events (stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at, chain_hash, epoch)
  SELECT input${t}.stream_id,
         ${expected} + input${t}.ord,
         input${t}.event ->> 'type',
         (input${t}.event ->> 'schemaVersion')::integer,
         input${t}.event -> 'data',
         coalesce(input${t}.event -> 'metadata', '{}'::jsonb),
         (input${t}.event ->> 'recordedAt')::timestamptz,
         (SELECT links FROM links${t})[input${t}.ord],
         -- The epoch as the column's default would read it (same snapshot), once per statement, not per row.
         (SELECT epoch FROM log_state)
  FROM input${t}
  WHERE ${where}
  ORDER BY input${t}.ord
  RETURNING global_position, stream_version
)`,
    ...(channel === null
      ? []
      : [
          sql`notified${t} AS (
  SELECT pg_notify(${channel}::text, json_build_object(
           'stream_id', ${stream},
           'global_position', max(global_position),
           'stream_version', max(stream_version))::text) AS sent
  FROM ${inserted}
  HAVING count(*) > 0
)`,
        ]),
    ...alongside.map((cte, i) => sql`alongside${t}_${raw(String(i))} AS (${cte})`),
  ];
  return joinSql(ctes, ',\n');
}

/** The rows one placed append returns, as a FROM item (its NOTIFY, when it sends one, must be read to run). */
export const insertedRows = (slot: AppendSlot, channel: string | null): SqlFragment =>
  channel === null ? insertedCte(slot) : sql`${insertedCte(slot)} CROSS JOIN notified${raw(slot.tag)}`;

/**
 * One statement, one round trip. Two writers racing on one version: the unique (stream_id,
 * stream_version) index lets one win and the other gets StreamVersionConflictError, as does a writer
 * whose expectedVersion is stale. Run it inside a transaction when other writes must commit with the events.
 */
export function appendSql(placed: PlacedAppend, channel: string | null): SqlFragment {
  const inserted = insertedCte(placed.slot);
  return sql`
WITH ${appendCtes(placed, channel)}
SELECT ${inserted}.global_position, ${inserted}.stream_version
FROM ${insertedRows(placed.slot, channel)}
ORDER BY ${inserted}.stream_version`;
}

/** A spec's riding writes and guard, placed for `slot`. */
export function placeAppend(spec: AppendSpec, slot: AppendSlot): PlacedAppend {
  return { spec, alongside: spec.alongside?.(placementOf(slot)) ?? [], guard: spec.guard ?? null, slot };
}

export function checkedVersion(expectedVersion: number): number {
  if (!Number.isSafeInteger(expectedVersion) || expectedVersion < 0) {
    throw new RangeError(`expectedVersion must be a non-negative integer, got ${expectedVersion}`);
  }
  return expectedVersion;
}

/**
 * The chain links of the append's events (migrations/0025_event_chain.sql), as one bytea[]: the previous
 * link is read by (stream, expectedVersion), a row no writer changes, in the statement that inserts
 * after it (the lock or unique index that already serializes the stream's writers serializes this).
 * A previous event that is archived links from archived_streams (it is always that stream's archived head).
 * When that row is not there the links are NULL, and so is every insert's chain_hash: the version check
 * inserts nothing then, and the CHECK events_with_chain_hash refuses anything else.
 */
function linksOf(spec: PlacedAppend['spec'], t: SqlFragment): SqlFragment {
  const previous =
    spec.expectedVersion === 0
      ? raw(`'\\x${'00'.repeat(32)}'::bytea`)
      : sql`coalesce((SELECT chain_hash FROM events WHERE stream_id = ${spec.streamId}::text AND stream_version = ${spec.expectedVersion}::bigint),
           (SELECT last_chain_hash FROM archived_streams WHERE stream_id = ${spec.streamId}::text AND last_version = ${spec.expectedVersion}::bigint))`;
  // One event (the usual append): one sha256, no function call.
  if (spec.events.length === 1) return sql`SELECT ARRAY[sha256(${previous} || decode((SELECT event ->> 'digest' FROM input${t}), 'hex'))] AS links`;
  return sql`SELECT palimpsest_chain_links(${previous}, ARRAY(SELECT decode(event ->> 'digest', 'hex') FROM input${t} ORDER BY ord)) AS links`;
}

/**
 * The events as the statement reads them, each with its digest (computed here, linked in SQL). Data and
 * metadata are written once, as canonical JSON, for both the statement and the digest.
 */
function payloadOf(spec: PlacedAppend['spec']): string {
  let out = '[';
  spec.events.forEach((event, i) => {
    const data = canonicalJson(event.data === undefined ? null : event.data);
    const metadata = canonicalJson(event.metadata ?? {});
    const chained = { ...event, streamId: spec.streamId, streamVersion: spec.expectedVersion + i + 1 };
    const digest = digestOfText(eventCanonicalTextOf(chained, data, metadata));
    out +=
      (i > 0 ? ',' : '') +
      `{"type":${JSON.stringify(event.type)},"schemaVersion":${canonicalJson(event.schemaVersion)},"data":${data},` +
      `"metadata":${metadata},"recordedAt":${JSON.stringify(event.recordedAt)},"digest":"${digest}"}`;
  });
  return out + ']';
}
