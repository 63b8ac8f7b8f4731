import { createHash } from 'node:crypto';
import type { Sql } from '@palimpsest/store/db';
import type { ReadAllCheckpoint } from '@palimpsest/store/read-all';

/** Committed events after the checkpoint (readAll order), and the age of the oldest of them. */
export async function relayLag(sql: Sql, after: ReadAllCheckpoint): Promise<{ events: number; seconds: number }> {
  const { rows } = await sql.query<{ events: number; seconds: number | null }>(
    `SELECT count(*)::bigint AS events,
            GREATEST(0, EXTRACT(EPOCH FROM now() - min(recorded_at)))::float8 AS seconds
       FROM events
      WHERE (transaction_xid, global_position) > ($1::text::xid8, $2::bigint)`,
    [after.xid, after.position],
  );
  return { events: Number(rows[0]?.events ?? 0), seconds: Number(rows[0]?.seconds ?? 0) };
}

/** The leader lock of a consumer: one signed 64-bit advisory key per name. */
export function leaderLockKey(name: string): bigint {
  return createHash('sha256').update(`palimpsest-consumer-leader:${name}`).digest().readBigInt64BE(0);
}

export const LEADER_APPLICATION_PREFIX = 'palimpsest-leader ';

/** On the lock's own session: takes it if free, and names the holder in application_name. */
export async function tryLeaderLock(session: Sql, key: bigint, holder: string): Promise<boolean> {
  const { rows } = await session.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS locked', [key.toString()]);
  if (!rows[0]?.locked) return false;
  await session.query(`SELECT set_config('application_name', $1, false)`, [`${LEADER_APPLICATION_PREFIX}${holder}`.slice(0, 63)]);
  return true;
}

export async function releaseLeaderLock(session: Sql, key: bigint): Promise<void> {
  await session.query('SELECT pg_advisory_unlock($1::bigint)', [key.toString()]);
  await session.query('RESET application_name');
}

/** Who holds the lock in this database (the holder named at tryLeaderLock), null when nobody does. */
export async function leaderLockHolder(sql: Sql, key: bigint): Promise<string | null> {
  const unsigned = BigInt.asUintN(64, key);
  const { rows } = await sql.query<{ name: string }>(
    `SELECT a.application_name AS name
       FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND l.classid = $1::bigint::oid AND l.objid = $2::bigint::oid`,
    [(unsigned >> 32n).toString(), (unsigned & 0xffffffffn).toString()],
  );
  const name = rows[0]?.name;
  if (name === undefined) return null;
  return name.startsWith(LEADER_APPLICATION_PREFIX) ? name.slice(LEADER_APPLICATION_PREFIX.length) : name;
}
