import type { Sql } from './db';
import { STORED_EVENT_COLUMNS, toStoredEvent, type StoredEvent, type StoredEventRow } from './stored-event';

export interface ReadStreamOptions {
  /** First version to return (inclusive); default 1. */
  fromVersion?: number;
  /** Last version to return (inclusive); default: the end of the stream. */
  toVersion?: number;
  /** At most this many events; default: no limit. */
  limit?: number;
}

/**
 * A stream's events in stream_version order, as visible to `sql` (a transaction sees its own appends).
 * Versions missing from events at the start of the range are looked for in the archive (events_archive):
 * only a stream with archived events pays that second read, and those events say `archived`.
 */
export async function readStream(sql: Sql, streamId: string, opts: ReadStreamOptions = {}): Promise<StoredEvent[]> {
  const from = opts.fromVersion ?? 1;
  const live = await readAttached(sql, streamId, opts);
  if (live.length > 0 && live[0]!.streamVersion === from) return live;
  return withArchivedPrefix(sql, streamId, from, opts, live);
}

async function readAttached(sql: Sql, streamId: string, opts: ReadStreamOptions): Promise<StoredEvent[]> {
  const { rows } = await sql.query<StoredEventRow>(
    `SELECT ${STORED_EVENT_COLUMNS}
     FROM events
     WHERE stream_id = $1
       AND stream_version >= $2::bigint
       AND ($3::bigint IS NULL OR stream_version <= $3::bigint)
     ORDER BY stream_version
     LIMIT $4::bigint`,
    [streamId, opts.fromVersion ?? 1, opts.toVersion ?? null, opts.limit ?? null],
  );
  return rows.map(toStoredEvent);
}

/** The archived versions from `from` up to the first attached one (or the archived head), then the attached ones. */
async function withArchivedPrefix(sql: Sql, streamId: string, from: number, opts: ReadStreamOptions, live: StoredEvent[]): Promise<StoredEvent[]> {
  const head = await sql.query<{ last_version: number }>('SELECT last_version FROM archived_streams WHERE stream_id = $1', [streamId]);
  const archivedHead = head.rows[0]?.last_version;
  if (archivedHead === undefined || archivedHead < from) return live;
  const upTo = Math.min(archivedHead, opts.toVersion ?? Infinity, live.length ? live[0]!.streamVersion - 1 : Infinity);
  const { rows } = await sql.query<StoredEventRow>(
    `SELECT ${STORED_EVENT_COLUMNS}, true AS archived
     FROM events_archive
     WHERE stream_id = $1 AND stream_version >= $2::bigint AND stream_version <= $3::bigint
     ORDER BY stream_version
     LIMIT $4::bigint`,
    [streamId, from, upTo, opts.limit ?? null],
  );
  const merged = [...rows.map(toStoredEvent), ...live];
  return opts.limit === undefined ? merged : merged.slice(0, opts.limit);
}

/**
 * A stream's events in stream_version order, a page at a time (keyset on stream_version), so a fold
 * holds one page, not the history. Inside a REPEATABLE READ transaction every page sees one snapshot.
 * Never yields an empty page.
 */
export async function* streamPages(sql: Sql, streamId: string, pageSize = 500): AsyncGenerator<StoredEvent[]> {
  for (let from = 1; ; ) {
    const page = await readStream(sql, streamId, { fromVersion: from, limit: pageSize });
    if (page.length) yield page;
    if (page.length < pageSize) return;
    from = page[page.length - 1]!.streamVersion + 1;
  }
}
