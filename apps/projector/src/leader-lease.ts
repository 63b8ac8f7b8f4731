import type { Db, Sql } from '@palimpsest/store/db';
import { tryNamedLease } from '@palimpsest/store/advisory-lease';
import { consumerLeaseName } from '@palimpsest/projections/async/consumer-leases';

/** The right to apply one consumer, held by one instance at a time across processes. */
export interface LeaderLease {
  /** Where to record the leader (the lease's own session on PostgreSQL: status checks its backend). */
  readonly sql: Sql;
  readonly onLeaseSession: boolean;
  /** False once the lease is lost (its connection ended): stop applying and acquire again. */
  alive(): Promise<boolean>;
  release(): Promise<void>;
}

/** Leases of this process on the embedded store, whose one process is the owner and so the leader. */
const heldHere = new Set<string>();

/**
 * The consumer's leader lease: on PostgreSQL a session advisory lock (it dies with its connection,
 * so another projector takes over as soon as the holder is killed); on the embedded store the
 * in-process owner leads (one lease per consumer within the process). Null while another holds it.
 */
export async function tryLeaderLease(db: Db, consumer: string): Promise<LeaderLease | null> {
  if (db.kind === 'pglite') {
    if (heldHere.has(consumer)) return null;
    heldHere.add(consumer);
    return { sql: db, onLeaseSession: false, alive: async () => heldHere.has(consumer), release: async () => void heldHere.delete(consumer) };
  }
  const lease = await tryNamedLease(db, consumerLeaseName(consumer));
  if (!lease) return null;
  return {
    sql: lease.session,
    onLeaseSession: true,
    async alive() {
      try {
        await lease.session.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    release: () => lease.release(),
  };
}
