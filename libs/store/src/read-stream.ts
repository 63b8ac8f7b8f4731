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

/** A stream's events in stream_version order, as visible to `sql` (a transaction sees its own appends). */
export async function readStream(sql: Sql, streamId: string, opts: ReadStreamOptions = {}): Promise<StoredEvent[]> {
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
