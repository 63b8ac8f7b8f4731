import type { Sql } from '@palimpsest/store/db';

/**
 * The projector's shard leases on PostgreSQL (migration 0033, docs/projector.md "Shards and leases"): a
 * member per running log consumer, a lease per shard (a processor, named as its checkpoint) with a
 * fencing token incremented on every takeover. The embedded store has one process: it does not use them.
 */

/** A lease this member holds: the shard and the fencing token its checkpoint updates must carry. */
export interface HeldShard {
  shard: string;
  token: string;
}

const ms = (name: string) => `(${name}::bigint * interval '1 millisecond')`;

/**
 * A member is live while its heartbeat holds and the backend of its session is still connected (its pid
 * and start time: a pid reused by a later backend does not count). A role without pg_read_all_stats sees
 * no backend_start of another role's sessions: then the pid alone counts.
 */
const LIVE_MEMBER = `m.expires_at > now()
  AND EXISTS (SELECT 1 FROM pg_stat_activity a
               WHERE a.pid = m.backend_pid AND (a.backend_start = m.backend_start OR a.backend_start IS NULL))`;

/**
 * Records the member on its own session (whose backend proves it is alive), creates the lease rows of its
 * shards, and forgets members dead for more than ten lease periods. A member registering again (its
 * session was lost) has given up what it held: any lease still under its name is released.
 */
export async function registerMember(session: Sql, member: string, holder: string, shards: readonly string[], periodMs: number): Promise<number> {
  await session.query(`DELETE FROM projector_members WHERE expires_at < now() - 10 * ${ms('$1')}`, [periodMs]);
  await session.query(`UPDATE projector_shard_leases SET member = NULL, holder = NULL, expires_at = now() WHERE member = $1`, [member]);
  await session.query(`INSERT INTO projector_shard_leases (shard) SELECT unnest($1::text[]) ON CONFLICT (shard) DO NOTHING`, [shards]);
  const { rows } = await session.query<{ pid: number }>(
    `INSERT INTO projector_members (member, holder, shards, backend_pid, backend_start, expires_at)
     SELECT $1, $2, $3::text[], a.pid, a.backend_start, now() + ${ms('$4')}
       FROM pg_stat_activity a WHERE a.pid = pg_backend_pid()
     ON CONFLICT (member) DO UPDATE
       SET holder = EXCLUDED.holder, shards = EXCLUDED.shards, backend_pid = EXCLUDED.backend_pid,
           backend_start = EXCLUDED.backend_start, expires_at = EXCLUDED.expires_at
     RETURNING backend_pid AS pid`,
    [member, holder, shards, periodMs],
  );
  if (!rows[0]) throw new Error('registerMember: this session is not in pg_stat_activity');
  return Number(rows[0].pid);
}

/**
 * The heartbeat: extends the member and every lease it still holds by one lease period. Null when the
 * member is no longer registered with the session backend `backendPid` (register again); else the
 * leases it holds (one it believed it held and that is missing was taken over).
 */
export async function renewMember(sql: Sql, member: string, periodMs: number, backendPid: number): Promise<HeldShard[] | null> {
  const { rows } = await sql.query<{ registered: boolean; held: HeldShard[] }>(
    `WITH me AS (
       UPDATE projector_members SET expires_at = now() + ${ms('$2')}
        WHERE member = $1 AND backend_pid = $3 RETURNING member
     ), renewed AS (
       UPDATE projector_shard_leases l SET expires_at = now() + ${ms('$2')}
         FROM me WHERE l.member = me.member RETURNING l.shard, l.token::text AS token
     )
     SELECT EXISTS (SELECT 1 FROM me) AS registered,
            COALESCE((SELECT json_agg(json_build_object('shard', shard, 'token', token)) FROM renewed), '[]'::json) AS held`,
    [member, periodMs, backendPid],
  );
  return rows[0]!.registered ? rows[0]!.held : null;
}

/**
 * How many live members run each of `shards` (this member included once registered): a member's fair
 * share is the sum over its shards of 1 / that count, rounded up (shards / live members when every member
 * runs the same processors).
 */
export async function fairShare(sql: Sql, shards: readonly string[]): Promise<number> {
  const { rows } = await sql.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM projector_members m WHERE ${LIVE_MEMBER} AND s.shard = ANY(m.shards))::int AS n
       FROM unnest($1::text[]) AS s(shard)`,
    [shards],
  );
  const share = rows.reduce((sum, row) => sum + 1 / Math.max(1, Number(row.n)), 0);
  return Math.min(shards.length, Math.ceil(share - 1e-9));
}

/**
 * Takes up to `limit` of `shards` that nobody holds: released, expired, or held by a member that is no
 * longer live (its backend gone). Each takeover increments the shard's fencing token. Rows another
 * transaction has locked (a takeover in progress, a holder's checkpoint update committing) are skipped.
 */
export async function acquireShards(sql: Sql, member: string, holder: string, shards: readonly string[], limit: number, periodMs: number): Promise<HeldShard[]> {
  if (limit <= 0 || shards.length === 0) return [];
  const { rows } = await sql.query<HeldShard>(
    `WITH free AS (
       SELECT l.shard FROM projector_shard_leases l
        WHERE l.shard = ANY($1::text[])
          AND (l.member IS NULL OR l.expires_at <= now()
               OR NOT EXISTS (SELECT 1 FROM projector_members m WHERE m.member = l.member AND ${LIVE_MEMBER}))
        ORDER BY l.shard
        LIMIT $4
        FOR UPDATE SKIP LOCKED
     )
     UPDATE projector_shard_leases l
        SET member = $2, holder = $3, token = l.token + 1, expires_at = now() + ${ms('$5')}, acquired_at = now()
       FROM free WHERE l.shard = free.shard
     RETURNING l.shard, l.token::text AS token`,
    [shards, member, holder, limit, periodMs],
  );
  return rows;
}

/** Gives a lease up (a clean stop, a failed batch, a share that shrank): free at once, its token kept. */
export async function releaseShard(sql: Sql, lease: HeldShard): Promise<void> {
  await sql.query(
    `UPDATE projector_shard_leases SET member = NULL, holder = NULL, expires_at = now() WHERE shard = $1 AND token = $2::bigint`,
    [lease.shard, lease.token],
  );
}

/** A clean stop: the member's leases released, its row removed. */
export async function retireMember(sql: Sql, member: string): Promise<void> {
  await sql.query(`UPDATE projector_shard_leases SET member = NULL, holder = NULL, expires_at = now() WHERE member = $1`, [member]);
  await sql.query(`DELETE FROM projector_members WHERE member = $1`, [member]);
}

/** The live leases (unexpired, member live) by shard: shard → holder, for status. */
export const LIVE_SHARD_LEASE = `s.expires_at > now()
  AND EXISTS (SELECT 1 FROM projector_members m WHERE m.member = s.member AND ${LIVE_MEMBER})`;
