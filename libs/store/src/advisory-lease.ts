import { createHash } from 'node:crypto';
import type { LeaseKey, LeaseProvider, WorkspaceLease } from '@palimpsest/core/workspace/lease.port';
import type { Db, DbSession } from './db';

/**
 * The workspace lease across machines that share one PostgreSQL database (seed 003: the lease serializes
 * a destination "across processes"): besides `inner` (the machine's lease), one session advisory lock per
 * destination directory, taken with pg_try_advisory_lock on a connection held for the lease's life. The
 * server drops the lock when that connection ends, so a holder that dies (or is cut off) leaves no stale
 * lease; the lease is then no longer exclusive, which the holder cannot learn before its next statement.
 * The embedded store (PGlite) is owned by one process, so there `inner` is the whole lease.
 *
 * Keys are (dev, ino) pairs: directories on two machines share one only when they are one filesystem
 * reporting the same identity to both (a shared mount); elsewhere equal numbers are a harmless collision
 * that only serializes two unrelated publications.
 */
export function advisoryLeaseProvider(db: Db, inner: LeaseProvider): LeaseProvider {
  if (db.kind === 'pglite') return inner;
  return {
    async tryAcquire(keys) {
      const local = await inner.tryAcquire(keys);
      if (!local) return null;
      try {
        const locked = await lockAll(db, keys);
        if (!locked) {
          await local.release();
          return null;
        }
        return advisoryLease(local, locked);
      } catch (error) {
        await local.release();
        throw error;
      }
    },
  };
}

/** A stable signed 64-bit key per directory (decimal text, for a bigint parameter). */
export function advisoryLockKey(key: LeaseKey): string {
  const digest = createHash('sha256').update(`palimpsest-workspace-dir:${key.dev}:${key.ino}`).digest();
  return digest.readBigInt64BE(0).toString();
}

/** Every key once, in one order for every process (so that two holders never wait on each other in a cycle). */
const lockOrder = (keys: LeaseKey[]): string[] => [...new Set(keys.map(advisoryLockKey))].sort();

async function lockAll(db: Db, keys: LeaseKey[]): Promise<DbSession | null> {
  const session = await db.session();
  try {
    for (const lock of lockOrder(keys)) {
      const { rows } = await session.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS locked', [lock]);
      if (!rows[0]?.locked) {
        await unlockAll(session);
        return null;
      }
    }
    return session;
  } catch (error) {
    await unlockAll(session).catch(() => undefined); // a broken session is destroyed, and its locks with it
    throw error;
  }
}

/**
 * A lease on one named role across processes sharing a PostgreSQL database (the projector's leader per
 * consumer): a session advisory lock on a connection held for the lease's life, so it dies with the
 * holder's connection (a SIGKILLed holder frees it at once). The `session` is the lease's own
 * connection: statements sent on it prove the lease is still held (they fail once it is lost).
 */
export interface NamedLease {
  readonly key: string;
  readonly session: DbSession;
  release(): Promise<void>;
}

/** A stable signed 64-bit advisory key per role name (decimal text, for a bigint parameter). */
export function namedLockKey(name: string): string {
  return createHash('sha256').update(`palimpsest-named-lease:${name}`).digest().readBigInt64BE(0).toString();
}

/** PostgreSQL only: the lease on `name`, or null while another session holds it. */
export async function tryNamedLease(db: Db, name: string): Promise<NamedLease | null> {
  if (db.kind !== 'postgres') throw new Error('tryNamedLease: PostgreSQL only (the embedded store has one process, its owner leads)');
  const key = namedLockKey(name);
  const session = await db.session();
  try {
    const { rows } = await session.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS locked', [key]);
    if (!rows[0]?.locked) {
      await session.release();
      return null;
    }
  } catch (error) {
    await unlockAll(session).catch(() => undefined);
    throw error;
  }
  let released: Promise<void> | undefined;
  const release = () => (released ??= unlockAll(session).catch(() => undefined)); // a lost connection took its lock along
  return { key, session, release };
}

/** Every advisory lock of the session, so that no lock goes back to the pool with its connection. */
async function unlockAll(session: DbSession): Promise<void> {
  try {
    await session.query('SELECT pg_advisory_unlock_all()');
  } finally {
    await session.release();
  }
}

function advisoryLease(local: WorkspaceLease, session: DbSession): WorkspaceLease {
  let released: Promise<void> | undefined;
  const release = async () => {
    try {
      await unlockAll(session);
    } catch {
      // the connection is gone, and the server dropped its locks with it
    } finally {
      await local.release();
    }
  };
  return { keys: local.keys, release: () => (released ??= release()) };
}
