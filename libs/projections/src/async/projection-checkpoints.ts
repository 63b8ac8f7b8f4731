import type { Sql } from '@palimpsest/store/db';
import type { ReadAllCheckpoint } from '@palimpsest/store/read-all';

export interface ConsumerCheckpoint extends ReadAllCheckpoint {
  eventsHandled: number;
  updatedAt: string;
}

const START: ReadAllCheckpoint = { xid: '0', position: 0 };

/** The consumer's checkpoint, created at the beginning of the log when it has none. */
export async function loadCheckpoint(sql: Sql, name: string): Promise<ConsumerCheckpoint> {
  await sql.query(`INSERT INTO projection_checkpoints (projection) VALUES ($1) ON CONFLICT (projection) DO NOTHING`, [name]);
  const { rows } = await sql.query<{ xid: string; position: string | number; handled: string | number; updated_at: Date | string }>(
    `SELECT last_xid::text AS xid, last_position AS position, events_handled AS handled, updated_at
       FROM projection_checkpoints WHERE projection = $1`,
    [name],
  );
  const row = rows[0];
  return { xid: row.xid, position: Number(row.position), eventsHandled: Number(row.handled), updatedAt: new Date(row.updated_at).toISOString() };
}

/**
 * Moves the checkpoint from `from` to `to` (compare-and-set). False when another instance moved it
 * first: the caller's transaction must then roll back whatever it applied.
 */
export async function advanceCheckpoint(sql: Sql, name: string, from: ReadAllCheckpoint, to: ReadAllCheckpoint, handled: number): Promise<boolean> {
  const { rows } = await sql.query(
    `UPDATE projection_checkpoints
        SET last_xid = $4::text::xid8, last_position = $5::bigint,
            events_handled = events_handled + $6::bigint, updated_at = now()
      WHERE projection = $1 AND last_xid = $2::text::xid8 AND last_position = $3::bigint
      RETURNING 1`,
    [name, from.xid, from.position, to.xid, to.position, handled],
  );
  return rows.length === 1;
}

export type FencedAdvance = 'advanced' | 'moved' | 'fenced';

/**
 * advanceCheckpoint for the holder of a shard lease (shard-leases.ts): the checkpoint moves only while the
 * lease of `name` still carries `token`. The lease row is locked FOR SHARE until the caller's transaction
 * ends, so a takeover (which increments the token) waits for this batch or skips the shard, and a batch
 * of a holder whose lease was taken over sees the new token and is refused: 'fenced', and the caller's
 * transaction must roll back what it applied. 'moved' as advanceCheckpoint's false.
 */
export async function advanceFencedCheckpoint(
  sql: Sql,
  name: string,
  from: ReadAllCheckpoint,
  to: ReadAllCheckpoint,
  handled: number,
  token: string,
): Promise<FencedAdvance> {
  const { rows } = await sql.query<{ leased: boolean; advanced: boolean }>(
    `WITH fence AS (
       SELECT 1 FROM projector_shard_leases WHERE shard = $1 AND token = $7::bigint FOR SHARE
     ), advanced AS (
       UPDATE projection_checkpoints
          SET last_xid = $4::text::xid8, last_position = $5::bigint,
              events_handled = events_handled + $6::bigint, updated_at = now()
        WHERE projection = $1 AND last_xid = $2::text::xid8 AND last_position = $3::bigint
          AND EXISTS (SELECT 1 FROM fence)
        RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM fence) AS leased, EXISTS (SELECT 1 FROM advanced) AS advanced`,
    [name, from.xid, from.position, to.xid, to.position, handled, token],
  );
  const row = rows[0]!;
  return !row.leased ? 'fenced' : row.advanced ? 'advanced' : 'moved';
}

/** Puts a consumer back at the beginning of the log (its tables are the caller's to empty). */
export async function resetCheckpoint(sql: Sql, name: string): Promise<void> {
  await sql.query(
    `INSERT INTO projection_checkpoints (projection) VALUES ($1)
     ON CONFLICT (projection) DO UPDATE SET last_xid = '0', last_position = 0, events_handled = 0, updated_at = now()`,
    [name],
  );
}

/**
 * Whether the consumer has handled the event at `position` (and so, in commit-safe order, every event
 * committed before it). True for a position that holds no event at or below the checkpoint's.
 */
export async function hasReached(sql: Sql, name: string, position: number): Promise<boolean> {
  const { rows } = await sql.query<{ reached: boolean }>(
    `SELECT COALESCE(
              (SELECT (e.transaction_xid, e.global_position) <= (c.last_xid, c.last_position)
                 FROM events e WHERE e.global_position = $2::bigint),
              $2::bigint <= c.last_position) AS reached
       FROM projection_checkpoints c WHERE c.projection = $1`,
    [name, position],
  );
  return rows[0]?.reached === true;
}

export { START as LOG_START };
