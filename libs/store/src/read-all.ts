import type { DbKind, Sql } from './db';
import { EVENTS_AND_ARCHIVE, STORED_EVENT_COLUMNS, toStoredEvent, withoutRepeats, type StoredEvent, type StoredEventRow } from './stored-event';

/** Where an async consumer stands: the (transactionXid, globalPosition) of the last event it handled. */
export interface ReadAllCheckpoint {
  xid: string;
  position: number;
}

export interface ReadAllOptions {
  /** Return only events strictly after this checkpoint; null/absent = from the beginning. */
  after?: ReadAllCheckpoint | null;
  limit: number;
  /** Each event with its chain link (the Merkle log's leaves are made of it), in the same statement. */
  withChain?: boolean;
}

/**
 * The whole log for async consumers (projections), in commit-safe order.
 *
 * global_position is assigned at INSERT, not at COMMIT: a transaction holding position 10 can commit
 * after one holding 11, so a consumer checkpointing on position alone would skip 10. Instead this
 * returns only events whose transaction_xid is below the snapshot's xmin (every such transaction has
 * finished, so nothing can still appear below it), ordered by (transaction_xid, global_position).
 * Events of a transaction still running — and of any later xid — are withheld until it ends.
 * Checkpoint with the last event's (transactionXid, globalPosition) and every event is seen exactly once.
 *
 * On PostgreSQL xmin is cluster-wide: any long write transaction, in any database of the server,
 * delays (never loses) events until it ends. Archived epochs are read too (each such event says `archived`).
 *
 * ORDER BY names the FROM item's columns (events.transaction_xid): a bare `transaction_xid` is the select
 * list's `transaction_xid::text`, which sorts '10000' before '9999' (a page past a digit boundary skips
 * the events below it for good) and cannot use the (transaction_xid, global_position) index (every page
 * sorted the whole log below xmin).
 */
export async function readAll(db: LogSource, opts: ReadAllOptions): Promise<StoredEvent[]> {
  if (!Number.isSafeInteger(opts.limit) || opts.limit < 1) {
    throw new RangeError(`limit must be a positive integer, got ${opts.limit}`);
  }
  const after = opts.after ?? { xid: '0', position: 0 };
  const columns = `${opts.withChain ? `${STORED_EVENT_COLUMNS}, chain_hash` : STORED_EVENT_COLUMNS}, archived`;
  if (db.kind === 'pglite') return readAllOnPglite(db, after, opts.limit, columns);
  const { rows } = await db.query<ChainedRow>(
    `SELECT ${columns}
     FROM ${EVENTS_AND_ARCHIVE} AS events
     WHERE transaction_xid < pg_snapshot_xmin(pg_current_snapshot())
       AND (transaction_xid, global_position) > ($1::text::xid8, $2::bigint)
     ORDER BY events.transaction_xid, events.global_position
     LIMIT $3::bigint`,
    [after.xid, after.position, opts.limit],
  );
  return withoutRepeats(rows.map(toEvent));
}

type ChainedRow = StoredEventRow & { chain_hash?: Uint8Array | null };

function toEvent(row: ChainedRow): StoredEvent {
  const event = toStoredEvent(row);
  if (row.chain_hash) event.chainHash = Buffer.from(row.chain_hash).toString('hex');
  return event;
}

/** Where readAll reads: a Db (or anything that says which backend it queries). */
export type LogSource = Sql & { readonly kind: DbKind };

/**
 * PGlite has one connection, so its transactions commit one after another in the order they took their
 * positions: position order is commit order, and below xmin there is never a gap.
 */
async function readAllOnPglite(sql: Sql, after: ReadAllCheckpoint, limit: number, columns: string): Promise<StoredEvent[]> {
  const { rows } = await sql.query<ChainedRow>(
    `SELECT ${columns}
     FROM ${EVENTS_AND_ARCHIVE} AS events
     WHERE transaction_xid < pg_snapshot_xmin(pg_current_snapshot())
       AND global_position > $1::bigint
     ORDER BY global_position
     LIMIT $2::bigint`,
    [after.position, limit],
  );
  return withoutRepeats(rows.map(toEvent));
}

/** The checkpoint after `event`, to pass as `after` next time. */
export function checkpointOf(event: StoredEvent): ReadAllCheckpoint {
  return { xid: event.transactionXid, position: event.globalPosition };
}
