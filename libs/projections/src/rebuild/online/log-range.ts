import type { DbKind, Sql } from '@palimpsest/store/db';
import { readAll, type ReadAllCheckpoint } from '@palimpsest/store/read-all';
import { EVENTS_AND_ARCHIVE, STORED_EVENT_COLUMNS, toStoredEvent, withoutRepeats, type StoredEvent, type StoredEventRow } from '@palimpsest/store/stored-event';

/**
 * The rebuild's reads of the log, in one order per backend. PostgreSQL: readAll's (transaction id,
 * position) order. PGlite has one connection, so transactions commit one after another in the order
 * they took their positions: position order is commit order there. (It is also the only order that
 * works there: PGlite 0.5 on wasm32 sorts xid8 values wrongly, '1000' before '766'.)
 */
export interface LogRead {
  kind: DbKind;
  after: ReadAllCheckpoint;
  /** At most up to this checkpoint (a range already read once), default: to the end. */
  upTo?: ReadAllCheckpoint | null;
  limit: number;
  /**
   * false only for a caller holding locks that exclude every transaction that could still add an event it
   * cares about (the switch of an online rebuild): then everything visible is returned, with no bound
   * below the oldest running transaction.
   */
  gapSafe: boolean;
}

export async function readLog(sql: Sql, read: LogRead): Promise<StoredEvent[]> {
  const upTo = read.upTo ?? null;
  // The whole log from a checkpoint: readAll, which knows each backend's order.
  if (read.gapSafe && upTo === null) return readAll({ query: (text, params) => sql.query(text, params), kind: read.kind }, { after: read.after, limit: read.limit });
  if (read.kind === 'pglite') {
    const { rows } = await sql.query<StoredEventRow>(
      `SELECT ${STORED_EVENT_COLUMNS} FROM ${EVENTS_AND_ARCHIVE} AS events
        WHERE global_position > $1::bigint AND ($2::bigint IS NULL OR global_position <= $2::bigint)
        ORDER BY global_position LIMIT $3::bigint`,
      [read.after.position, upTo?.position ?? null, read.limit],
    );
    return withoutRepeats(rows.map(toStoredEvent));
  }
  const { rows } = await sql.query<StoredEventRow>(
    `SELECT ${STORED_EVENT_COLUMNS}
       FROM ${EVENTS_AND_ARCHIVE} AS events
      WHERE (transaction_xid, global_position) > ($1::text::xid8, $2::bigint)
        AND ($3::text IS NULL OR (transaction_xid, global_position) <= ($3::text::xid8, $4::bigint))
        AND ($6::boolean IS NOT TRUE OR transaction_xid < pg_snapshot_xmin(pg_current_snapshot()))
      ORDER BY events.transaction_xid, events.global_position -- the xid8 column, not the select list's text
      LIMIT $5::bigint`,
    [read.after.xid, read.after.position, upTo?.xid ?? null, upTo?.position ?? 0, read.limit, read.gapSafe],
  );
  return withoutRepeats(rows.map(toStoredEvent));
}

/** Whether checkpoint a is before b in the backend's log order (readLog's). */
export async function isBefore(sql: Sql, kind: DbKind, a: ReadAllCheckpoint, b: ReadAllCheckpoint): Promise<boolean> {
  if (kind === 'pglite') return a.position < b.position;
  const { rows } = await sql.query<{ before: boolean }>(
    `SELECT ($1::text::xid8, $2::bigint) < ($3::text::xid8, $4::bigint) AS before`,
    [a.xid, a.position, b.xid, b.position],
  );
  return rows[0]!.before;
}
