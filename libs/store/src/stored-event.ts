/** The event shapes going in (NewEvent) and coming out (StoredEvent), and the one row mapper. */

export interface NewEvent {
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata?: Record<string, unknown>;
  /** ISO 8601 with an offset, e.g. `2024-05-01T12:00:00.000Z`. */
  recordedAt: string;
}

export interface StoredEvent {
  globalPosition: number;
  streamId: string;
  streamVersion: number;
  type: string;
  schemaVersion: number;
  data: any;
  metadata: Record<string, unknown>;
  /** ISO 8601 in UTC with milliseconds, on both backends. */
  recordedAt: string;
  /** The xid8 of the appending transaction, as decimal text. */
  transactionXid: string;
  /** The stream's chain link at this event (lowercase hex), when the read asked for it (readAll's `withChain`). */
  chainHash?: string;
  /** Present when the event was read from an archived part of the log (palimpsest_archive). */
  archived?: true;
}

/** SELECT list matching StoredEventRow; `events` must be the table (or an alias of it). */
export const STORED_EVENT_COLUMNS = `global_position, stream_id, stream_version, event_type, schema_version,
  data, metadata, transaction_xid::text AS transaction_xid, recorded_at`;

export interface StoredEventRow {
  global_position: number;
  stream_id: string;
  stream_version: number;
  event_type: string;
  schema_version: number;
  data: unknown;
  metadata: Record<string, unknown>;
  transaction_xid: string;
  recorded_at: Date | string;
  /** Selected by the reads that include the archive (EVENTS_AND_ARCHIVE). */
  archived?: boolean;
}

/**
 * The log with its archived epochs (migrations/0035_partitioned_log.sql), as a FROM item with the
 * columns of events and `archived`. With nothing archived the second branch is `WHERE false` and the
 * planner drops it. While an epoch is being archived its rows come from both branches: drop repeats.
 * A migration adding a column to events must add it to the archived tables and to events_archive as well.
 */
export const EVENTS_AND_ARCHIVE = `(SELECT *, false AS archived FROM events UNION ALL SELECT *, true AS archived FROM events_archive)`;

/**
 * The events, attached or archived, that satisfy `where`, each once: a FROM item with the columns of events
 * (no `archived`), for reads that answer from history (as-of reads, lookups, exports, counts). `where` is a
 * condition on events' columns, unqualified; as a LATERAL item it may name the enclosing query's columns by
 * their alias. It is written into each branch, so each reaches its table's indexes whatever the planner
 * pushes down. An epoch being archived is in both: its archived copy is dropped while it is still attached.
 */
export function everyEventWhere(where: string): string {
  return `(SELECT * FROM events WHERE (${where})
  UNION ALL
  SELECT * FROM events_archive archived_event WHERE (${where})
     AND NOT EXISTS (SELECT 1 FROM events attached_event WHERE attached_event.global_position = archived_event.global_position))`;
}

/**
 * Events read from EVENTS_AND_ARCHIVE in log order, each once: an epoch being archived comes from both
 * branches, its repeats adjacent; within one read the attached copy is kept (across pages of readAll,
 * whichever copy a page ends with).
 */
export function withoutRepeats(events: StoredEvent[]): StoredEvent[] {
  const out: StoredEvent[] = [];
  for (const e of events) {
    const last = out[out.length - 1];
    if (last?.globalPosition !== e.globalPosition) out.push(e);
    else if (last.archived && !e.archived) out[out.length - 1] = e;
  }
  return out;
}

/** An events row as read without its transaction id (the chain and the audit export read these columns). */
export type EventRow = Omit<StoredEventRow, 'transaction_xid'>;

/** recorded_at as both backends give it back (a Date, or text), in UTC with milliseconds. */
export const recordedAtIso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();

export function toStoredEvent(row: StoredEventRow): StoredEvent {
  return {
    globalPosition: row.global_position,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    type: row.event_type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: row.metadata,
    recordedAt: recordedAtIso(row.recorded_at),
    transactionXid: row.transaction_xid,
    ...(row.archived ? { archived: true as const } : {}),
  };
}
