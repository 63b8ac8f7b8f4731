import type { DbKind, Sql } from '@palimpsest/store/db';
import { isRebuildingHere, rebuildLockName } from '../rebuild/online/rebuild-lock';
import { namedLockKey } from '@palimpsest/store/advisory-lease';
import type { ConsumerStatus } from './async-projection.port';
import type { ConsumerKind } from './consumer-leases';
import { LIVE_SHARD_LEASE } from './shard-leases';

export interface ConsumerRef {
  name: string;
  kind: ConsumerKind;
}

interface StatusRow {
  name: string;
  kind: ConsumerKind;
  xid: string;
  position: number;
  lag_events: number;
  lag_seconds: number | string | null;
  holder: string | null;
  lease_live: boolean;
  state: ConsumerStatus['state'] | null;
}

/**
 * Where every asynchronous consumer stands: `consumers` (the registered projections, even before their
 * first run), then any other consumer that has ever led (the relay). Lag counts the committed events
 * after the checkpoint in commit order, and dates the oldest of them; the leader is the recorded
 * holder only while its lease is alive (PostgreSQL: its shard lease is unexpired, held by it, and its
 * member's backend is connected; the embedded store: the holder is `self`, the one process that can open it).
 */
export async function consumerStatuses(sql: Sql, backend: DbKind, consumers: readonly ConsumerRef[], self: string): Promise<ConsumerStatus[]> {
  const { rows } = await sql.query<StatusRow>(
    `WITH listed AS (
       SELECT w.name, w.kind, w.ord FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS w(name, kind, ord)
       UNION ALL
       SELECT l.consumer, l.kind, 1000000 FROM consumer_leases l WHERE l.consumer <> ALL($1::text[])
     )
     SELECT c.name, c.kind, COALESCE(cp.last_xid, '0'::xid8)::text AS xid, COALESCE(cp.last_position, 0) AS position,
            lag.events AS lag_events,
            GREATEST(0, EXTRACT(EPOCH FROM clock_timestamp() - lag.oldest)) AS lag_seconds,
            l.holder, l.state,
            EXISTS (SELECT 1 FROM projector_shard_leases s WHERE s.shard = c.name AND s.holder = l.holder AND ${LIVE_SHARD_LEASE}) AS lease_live
       FROM listed c
       LEFT JOIN projection_checkpoints cp ON cp.projection = c.name
       LEFT JOIN consumer_leases l ON l.consumer = c.name
       CROSS JOIN LATERAL (
         SELECT count(*) AS events, min(e.recorded_at) AS oldest FROM events e
          WHERE (e.transaction_xid, e.global_position) > (COALESCE(cp.last_xid, '0'::xid8), COALESCE(cp.last_position, 0))
       ) lag
      ORDER BY c.ord, c.name`,
    [consumers.map((c) => c.name), consumers.map((c) => c.kind)],
  );
  const alive = backend === 'postgres' ? await advisoryHolders(sql) : null;
  const rebuildKeys = alive ? new Set([...alive].map((held) => held.slice(held.indexOf(':') + 1))) : null;
  // An online rebuild holds its lease (PostgreSQL) or runs in this process, the embedded store's owner.
  const rebuilding = (name: string) => (rebuildKeys ? rebuildKeys.has(namedLockKey(rebuildLockName(name))) : isRebuildingHere(name));
  return rows.map((row) => {
    const live = row.holder !== null && (backend === 'postgres' ? row.lease_live : row.holder === self);
    return {
      name: row.name,
      kind: row.kind,
      state: rebuilding(row.name) ? 'rebuilding' : live && row.state && row.state !== 'stopped' ? row.state : 'stopped',
      checkpoint: { xid: row.xid, position: Number(row.position) },
      lag_events: Number(row.lag_events),
      lag_seconds: row.lag_seconds === null ? 0 : Math.round(Number(row.lag_seconds) * 1000) / 1000,
      leader: live ? row.holder : null,
    };
  });
}

/** `backend pid:advisory key` of every advisory lock granted in this database (PostgreSQL). */
async function advisoryHolders(sql: Sql): Promise<Set<string>> {
  const { rows } = await sql.query<{ pid: number; key: string }>(
    `SELECT pid, ((classid::bigint << 32) | objid::bigint)::text AS key
       FROM pg_locks
      WHERE locktype = 'advisory' AND granted AND objsubid = 1
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  return new Set(rows.map((r) => `${r.pid}:${r.key}`));
}
