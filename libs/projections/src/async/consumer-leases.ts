import { hostname } from 'node:os';
import type { Sql } from '@palimpsest/store/db';
import type { ConsumerStatus } from './async-projection.port';

export type ConsumerKind = ConsumerStatus['kind'];
export type LeaderState = Exclude<ConsumerStatus['state'], 'stopped'>;

/** This process as a leader is named in status: host:pid. */
export function leaderIdentity(): string {
  return `${hostname()}:${process.pid}`;
}

/**
 * Records that this process leads `consumer` (migration 0016), with the backend of its member session on
 * PostgreSQL (shard-leases.ts: status names a leader only while its shard lease and that member live).
 */
export async function recordLeader(sql: Sql, consumer: string, kind: ConsumerKind, holder: string, backendPid: number | null): Promise<void> {
  await sql.query(
    `INSERT INTO consumer_leases (consumer, kind, holder, backend_pid, state, acquired_at, updated_at)
     VALUES ($1, $2, $3, $4, 'running', now(), now())
     ON CONFLICT (consumer) DO UPDATE
       SET kind = EXCLUDED.kind, holder = EXCLUDED.holder, backend_pid = EXCLUDED.backend_pid,
           state = 'running', acquired_at = now(), updated_at = now()`,
    [consumer, kind, holder, backendPid],
  );
}

/** The leader's own view of its consumer: catching up (a backlog) or running (caught up), or rebuilding. */
export async function recordLeaderState(sql: Sql, consumer: string, holder: string, state: LeaderState): Promise<void> {
  await sql.query(`UPDATE consumer_leases SET state = $3, updated_at = now() WHERE consumer = $1 AND holder = $2`, [consumer, holder, state]);
}

/** A clean stop: nobody leads until the next leader records itself. */
export async function recordStopped(sql: Sql, consumer: string, holder: string): Promise<void> {
  await sql.query(
    `UPDATE consumer_leases SET holder = NULL, backend_pid = NULL, state = 'stopped', updated_at = now() WHERE consumer = $1 AND holder = $2`,
    [consumer, holder],
  );
}
