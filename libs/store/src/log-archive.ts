import type { Db, Sql } from './db';
import { attachedEpochs, currentEpoch, epochSummary, epochTable, toArchived, type ArchivedPartition, type ArchiveRow } from './log-partitions';

/**
 * Archiving an epoch of the log: its partition leaves events for the schema palimpsest_archive while
 * writers go on, and stays readable (the view events_archive): reads of a stream, readAll and replay
 * read archived events from there, and an append continues a stream whose last event is archived from
 * archived_streams. Epochs are archived oldest first, and never the current one (roll first).
 */

export class LogArchiveRefusedError extends Error {
  override readonly name = 'LogArchiveRefusedError';
  constructor(
    message: string,
    readonly nextStep: string,
  ) {
    super(`${message}; ${nextStep}`);
  }
}

/** Which epochs to archive: those whose every event lies before a position, or was recorded before a time. */
export type ArchiveBound = { beforePosition: number } | { beforeTime: string };

/** `before` as the operator writes it: a global position (1 or more), or an ISO 8601 time; null for anything else. */
export function archiveBoundOf(before: string): ArchiveBound | null {
  if (/^\d+$/.test(before)) {
    const position = Number(before);
    return Number.isSafeInteger(position) && position >= 1 ? { beforePosition: position } : null;
  }
  const time = Date.parse(before);
  return /^\d{4}-\d{2}-\d{2}/.test(before) && Number.isFinite(time) ? { beforeTime: new Date(time).toISOString() } : null;
}

/** What an operator is told when `before` is neither. */
export const ARCHIVE_BOUND_HELP = 'neither a global position (1 or more) nor an ISO 8601 time: give e.g. 120000 or 2026-01-01T00:00:00Z';

/** The attached epochs, oldest first, that lie wholly before `bound` (never the current epoch). */
export async function epochsBefore(sql: Sql, bound: ArchiveBound): Promise<number[]> {
  const current = await currentEpoch(sql);
  const out: number[] = [];
  for (const epoch of await attachedEpochs(sql)) {
    if (epoch >= current) break;
    const s = await epochSummary(sql, epochTable(epoch));
    const before =
      'beforePosition' in bound
        ? s.lastPosition === null || s.lastPosition < bound.beforePosition
        : s.lastRecordedAt === null || Date.parse(s.lastRecordedAt) < Date.parse(bound.beforeTime);
    if (!before) break;
    out.push(epoch);
  }
  return out;
}

/**
 * Finishes any archive that was interrupted, then archives every attached epoch wholly before `bound`,
 * oldest first; returns what was archived (the finished ones included).
 */
export async function archiveBefore(db: Db, bound: ArchiveBound): Promise<ArchivedPartition[]> {
  const done: ArchivedPartition[] = [];
  const { rows } = await db.query<{ epoch: number }>('SELECT epoch FROM log_archives WHERE detached_at IS NULL ORDER BY epoch');
  for (const { epoch } of rows) done.push(await archiveEpoch(db, Number(epoch)));
  for (const epoch of await epochsBefore(db, bound)) done.push(await archiveEpoch(db, epoch));
  return done;
}

/**
 * Archives one epoch in three steps, each safe to run again after an interruption:
 * 1. one transaction records the epoch (log_archives), its streams' heads (archived_streams) and adds its
 *    table to events_archive: from then on its rows are read twice, and readers drop the repeats;
 * 2. DETACH PARTITION: CONCURRENTLY on PostgreSQL (SHARE UPDATE EXCLUSIVE on events: writers and readers
 *    go on; it waits for the queries that may still see the partition), plain on PGlite (one connection);
 * 3. the table moves to palimpsest_archive, and the archive says when it was detached.
 */
export async function archiveEpoch(db: Db, epoch: number): Promise<ArchivedPartition> {
  const table = epochTable(epoch);
  const archived = `palimpsest_archive.${table}`;
  const finished = await archiveRow(db, epoch);
  if (finished?.detached_at) return toArchived(finished);
  if (!finished) await beginArchive(db, epoch);
  await detach(db, table);
  return db.transaction(async (tx) => {
    const moved = await tx.query(`SELECT 1 FROM pg_tables WHERE schemaname = 'palimpsest_archive' AND tablename = $1`, [table]);
    if (moved.rows.length === 0) await tx.query(`ALTER TABLE ${table} SET SCHEMA palimpsest_archive`);
    const { rows } = await tx.query<ArchiveRow>('UPDATE log_archives SET table_name = $2, detached_at = now() WHERE epoch = $1 RETURNING *', [epoch, archived]);
    return toArchived(rows[0]!);
  });
}

async function archiveRow(sql: Sql, epoch: number): Promise<ArchiveRow | null> {
  const { rows } = await sql.query<ArchiveRow>('SELECT * FROM log_archives WHERE epoch = $1', [epoch]);
  return rows[0] ?? null;
}

/**
 * Step 1 of archiveEpoch alone (an archive interrupted after it is where this leaves the log): the epoch is
 * recorded and read from both events and events_archive until archiveEpoch or archiveBefore finishes it.
 */
export async function beginArchive(db: Db, epoch: number): Promise<void> {
  const table = epochTable(epoch);
  await db.transaction(async (tx) => {
    // Taken before the checks: two archivers, or an archive and a roll, run one after the other.
    await tx.query('LOCK TABLE log_archives IN EXCLUSIVE MODE');
    const current = await currentEpoch(tx);
    const attached = await attachedEpochs(tx);
    if (epoch >= current) {
      throw new LogArchiveRefusedError(`epoch ${epoch} takes the appends (the current epoch is ${current})`, 'roll the log first (palimpsest log roll), then archive');
    }
    if (!attached.includes(epoch)) {
      throw new LogArchiveRefusedError(`epoch ${epoch} is not attached to events`, 'list the partitions (palimpsest log partitions)');
    }
    if (attached[0] !== epoch) {
      throw new LogArchiveRefusedError(`epoch ${attached[0]} is older than ${epoch} and not archived`, `archive epoch ${attached[0]} first: epochs are archived oldest first`);
    }
    const s = await epochSummary(tx, table);
    await tx.query(
      `INSERT INTO log_archives (epoch, table_name, events, first_position, last_position, first_recorded_at, last_recorded_at, started_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now())`,
      [epoch, table, s.events, s.firstPosition, s.lastPosition, s.firstRecordedAt, s.lastRecordedAt],
    );
    // Oldest first, so a later epoch's head of a stream is always the newer one.
    await tx.query(
      `INSERT INTO archived_streams (stream_id, last_version, last_chain_hash, last_position)
       SELECT DISTINCT ON (stream_id) stream_id, stream_version, chain_hash, global_position
         FROM ${table} ORDER BY stream_id, stream_version DESC
       ON CONFLICT (stream_id) DO UPDATE
         SET last_version = excluded.last_version, last_chain_hash = excluded.last_chain_hash, last_position = excluded.last_position`,
    );
    await replaceArchiveView(tx, await archivedTables(tx));
  });
}

/** The table of every epoch in log_archives (this one included), where it is now: attached, or moved. */
async function archivedTables(sql: Sql): Promise<string[]> {
  const { rows } = await sql.query<{ t: string }>(
    `SELECT coalesce(to_regclass('palimpsest_archive.events_e' || epoch), to_regclass('public.events_e' || epoch))::text AS t
       FROM log_archives ORDER BY epoch`,
  );
  return rows.map((r) => r.t);
}

const ARCHIVE_COLUMNS = `global_position, stream_id, stream_version, event_type, schema_version, data, metadata,
         transaction_xid, recorded_at, chain_hash, epoch`;

async function replaceArchiveView(sql: Sql, tables: string[]): Promise<void> {
  const branches = tables.map((t) => `SELECT ${ARCHIVE_COLUMNS} FROM ${t}`).join('\n  UNION ALL\n  ');
  await sql.query(`CREATE OR REPLACE VIEW events_archive AS\n  ${branches}`);
}

async function detach(db: Db, table: string): Promise<void> {
  const { rows } = await db.query<{ pending: boolean }>(
    `SELECT i.inhdetachpending AS pending FROM pg_inherits i
      WHERE i.inhparent = 'public.events'::regclass AND i.inhrelid = to_regclass('public.' || $1)`,
    [table],
  );
  if (rows.length === 0) return;
  if (db.kind === 'pglite') {
    await db.query(`ALTER TABLE events DETACH PARTITION ${table}`);
    return;
  }
  await db.query(`ALTER TABLE events DETACH PARTITION ${table} ${rows[0]!.pending ? 'FINALIZE' : 'CONCURRENTLY'}`);
}
