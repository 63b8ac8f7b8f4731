import type { Db, Sql } from './db';

/**
 * The partitions of the event log (migrations/0035_partitioned_log.sql): one per epoch, the newest
 * taking every append. Rolling moves appends to a new epoch; archiving (log-archive.ts) detaches an old one.
 */

/** The table of an epoch's events (attached as events_eN, archived as palimpsest_archive.events_eN). */
export const epochTable = (epoch: number): string => {
  if (!Number.isSafeInteger(epoch) || epoch < 0) throw new RangeError(`an epoch is a non-negative integer, got ${epoch}`);
  return `events_e${epoch}`;
};

export interface AttachedPartition {
  epoch: number;
  table: string;
  /** Whether appends go there (the current epoch). */
  current: boolean;
  events: number;
  firstPosition: number | null;
  lastPosition: number | null;
  firstRecordedAt: string | null;
  lastRecordedAt: string | null;
}

export interface ArchivedPartition {
  epoch: number;
  /** Schema-qualified: where its events are read from. */
  table: string;
  events: number;
  firstPosition: number | null;
  lastPosition: number | null;
  firstRecordedAt: string | null;
  lastRecordedAt: string | null;
  /** null while the detach has not finished (an interrupted archive: run it again). */
  detachedAt: string | null;
}

export interface LogPartitions {
  currentEpoch: number;
  attached: AttachedPartition[];
  archived: ArchivedPartition[];
}

export async function currentEpoch(sql: Sql): Promise<number> {
  const { rows } = await sql.query<{ epoch: number }>('SELECT epoch FROM log_state');
  return Number(rows[0]!.epoch);
}

/** The epochs attached to events, oldest first (from the catalog: the partition bounds say the epoch). */
export async function attachedEpochs(sql: Sql): Promise<number[]> {
  const { rows } = await sql.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'public.events'::regclass AND NOT i.inhdetachpending`,
  );
  return rows
    .map((r) => /^events_e(\d+)$/.exec(r.name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
}

/** What one epoch's table holds: counted, and its ends read by the primary key. */
export async function epochSummary(sql: Sql, table: string): Promise<Omit<AttachedPartition, 'epoch' | 'table' | 'current'>> {
  const { rows } = await sql.query<{ n: string; first: string | null; last: string | null; fa: Date | string | null; la: Date | string | null }>(
    `SELECT count(*) AS n, min(global_position) AS first, max(global_position) AS last,
            min(recorded_at) AS fa, max(recorded_at) AS la FROM ${table}`,
  );
  const r = rows[0]!;
  return {
    events: Number(r.n),
    firstPosition: r.first === null ? null : Number(r.first),
    lastPosition: r.last === null ? null : Number(r.last),
    firstRecordedAt: isoOrNull(r.fa),
    lastRecordedAt: isoOrNull(r.la),
  };
}

export async function listLogPartitions(sql: Sql): Promise<LogPartitions> {
  const epoch = await currentEpoch(sql);
  const attached: AttachedPartition[] = [];
  for (const e of await attachedEpochs(sql)) {
    attached.push({ epoch: e, table: epochTable(e), current: e === epoch, ...(await epochSummary(sql, epochTable(e))) });
  }
  const { rows } = await sql.query<ArchiveRow>('SELECT * FROM log_archives ORDER BY epoch');
  return { currentEpoch: epoch, attached, archived: rows.map(toArchived) };
}

export interface ArchiveRow {
  epoch: number;
  table_name: string;
  events: string | number;
  first_position: string | number | null;
  last_position: string | number | null;
  first_recorded_at: Date | string | null;
  last_recorded_at: Date | string | null;
  detached_at: Date | string | null;
}

const numOrNull = (v: string | number | null): number | null => (v === null ? null : Number(v));
const isoOrNull = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

export const toArchived = (r: ArchiveRow): ArchivedPartition => ({
  epoch: Number(r.epoch),
  table: r.table_name,
  events: Number(r.events),
  firstPosition: numOrNull(r.first_position),
  lastPosition: numOrNull(r.last_position),
  firstRecordedAt: isoOrNull(r.first_recorded_at),
  lastRecordedAt: isoOrNull(r.last_recorded_at),
  detachedAt: isoOrNull(r.detached_at),
});

export interface RollOptions {
  /** How long to wait for writers in flight before giving up (lock_timeout); default 5000 ms. */
  lockTimeoutMs?: number;
}

/**
 * Moves appends to a new epoch, with a partition of its own, and returns it. LOCK TABLE ONLY events IN
 * SHARE MODE waits for every transaction that wrote to events and holds new writers until the commit
 * (readers go on): no two writers of one stream version can then be in different epochs (see the
 * migration). Writers wait for the roll, they do not fail; the roll itself fails with lock_timeout
 * (55P03, retryable) when a writer stays in flight longer than `lockTimeoutMs`.
 */
export async function rollLog(db: Db, opts: RollOptions = {}): Promise<number> {
  const timeout = opts.lockTimeoutMs ?? 5000;
  if (!Number.isSafeInteger(timeout) || timeout < 1) throw new RangeError(`lockTimeoutMs must be a positive integer, got ${timeout}`);
  return db.transaction(async (tx) => {
    await tx.query(`SET LOCAL lock_timeout = ${timeout}`);
    await tx.query('LOCK TABLE ONLY events IN SHARE MODE');
    const { rows } = await tx.query<{ epoch: number }>('UPDATE log_state SET epoch = epoch + 1 RETURNING epoch');
    const epoch = Number(rows[0]!.epoch);
    const table = epochTable(epoch);
    // Built apart and attached: ATTACH takes SHARE UPDATE EXCLUSIVE on events, where CREATE TABLE … PARTITION OF would take ACCESS EXCLUSIVE.
    await tx.exec(`
      CREATE TABLE ${table} (LIKE events INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
      ALTER TABLE ${table}
        ADD CONSTRAINT ${table}_pkey PRIMARY KEY (global_position),
        ADD CONSTRAINT ${table}_stream_version_unique UNIQUE (stream_id, stream_version),
        ADD CONSTRAINT ${table}_epoch CHECK (epoch = ${epoch});
      CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION events_forbid_change();
      ALTER TABLE events ATTACH PARTITION ${table} FOR VALUES IN (${epoch});`);
    return epoch;
  });
}

/** A stream-version unique constraint of any partition (the one a racing writer trips). */
export const isStreamVersionConstraint = (name: unknown): boolean => typeof name === 'string' && /^events(_e\d+)?_stream_version_unique$/.test(name);
