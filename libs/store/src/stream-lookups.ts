import type { Sql } from './db';
import { EVENTS_AND_ARCHIVE } from './stored-event';

/**
 * Questions about streams that the gateway asks of the log itself (not of a read model): whether a
 * stream exists, where a subscriber resumes, which streams began after a position.
 */

/** Whether the stream has a first event, attached or archived (indexed lookups). */
export async function streamExists(sql: Sql, streamId: string): Promise<boolean> {
  const { rows } = await sql.query(
    'SELECT 1 FROM events WHERE stream_id = $1 AND stream_version = 1 UNION ALL SELECT 1 FROM archived_streams WHERE stream_id = $1 LIMIT 1',
    [streamId],
  );
  return rows.length > 0;
}

/**
 * Where a stream resumes: the stream version of the last event at or below a global position.
 *
 * Why per-stream position order is safe here while readAll needs xid ordering: every append to a
 * target's stream happens in a transaction that first locks the target row (or creates it), and the
 * unique (stream_id, stream_version) index serializes two appends of one version. So a stream's next
 * event is inserted — and its global position drawn — only after the previous one committed: within
 * one stream, position order is commit order, and versions follow positions. Reading by version after
 * the last delivered one therefore never skips a late commit and never repeats an event.
 */
export async function versionAtPosition(sql: Sql, streamId: string, position: number): Promise<number> {
  if (position <= 0) return 0;
  const { rows } = await sql.query<{ v: number }>(
    `SELECT coalesce(max(stream_version),
       (SELECT max(stream_version) FROM events_archive WHERE stream_id = $1 AND global_position <= $2
           AND EXISTS (SELECT 1 FROM archived_streams WHERE stream_id = $1)), 0)::bigint AS v
       FROM events WHERE stream_id = $1 AND global_position <= $2`,
    [streamId, position],
  );
  return Number(rows[0]?.v ?? 0);
}

/** A stream's first event: its id and the global position it began at. */
export interface StreamStart {
  streamId: string;
  globalPosition: number;
}

/**
 * The streams whose id starts with `prefix` and whose first event lies after `after`, in position
 * order, at most `limit` of them: a page of streams listed from the log, so a stream missing from
 * every read model is still found.
 */
export async function streamStarts(sql: Sql, opts: { prefix: string; after: number; limit: number }): Promise<StreamStart[]> {
  const { rows } = await sql.query<{ stream_id: string; global_position: number }>(
    `SELECT DISTINCT ON (global_position) stream_id, global_position FROM ${EVENTS_AND_ARCHIVE} AS events
      WHERE stream_version = 1 AND stream_id LIKE $3 || '%' AND global_position > $1
      ORDER BY global_position LIMIT $2`,
    [opts.after, opts.limit, opts.prefix],
  );
  return rows.map((r) => ({ streamId: r.stream_id, globalPosition: Number(r.global_position) }));
}

/** Whether the event at `position` is in this database: a replica has replayed the write that made it. */
export async function holdsPosition(sql: Sql, position: number): Promise<boolean> {
  const { rows } = await sql.query<{ held: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${EVENTS_AND_ARCHIVE} AS events WHERE global_position = $1::bigint) AS held`, [position]);
  return rows[0]?.held === true;
}
