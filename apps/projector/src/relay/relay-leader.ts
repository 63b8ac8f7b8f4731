import type { Db, DbSession } from '@palimpsest/store/db';
import { leaderLockHolder, leaderLockKey, releaseLeaderLock, tryLeaderLock } from './relay.queries';

/** This instance is the one active relay until release() (or until its lock's connection is lost). */
export interface Leadership {
  /** False once the lock's connection is gone (the server dropped the lock with it). */
  alive(): Promise<boolean>;
  release(): Promise<void>;
}

/**
 * One active instance per consumer name. On PostgreSQL a session advisory lock held on a dedicated
 * connection: across processes and machines, released by the server when the holder dies, so a standby
 * takes over at its next retry. PGlite is owned by one process, so there the lock is in-process.
 */
export async function tryLead(db: Db, name: string, holder: string): Promise<Leadership | null> {
  if (db.kind === 'pglite') return tryLeadInProcess(db, name, holder);
  const key = leaderLockKey(name);
  const session = await db.session();
  let locked = false;
  try {
    locked = await tryLeaderLock(session, key, holder);
  } finally {
    if (!locked) await session.release();
  }
  return locked ? sessionLeadership(session, key) : null;
}

/** Who leads `name` (host:pid), null when nobody does. */
export async function leaderOf(db: Db, name: string): Promise<string | null> {
  if (db.kind === 'pglite') return inProcess.get(db)?.get(name) ?? null;
  return leaderLockHolder(db, leaderLockKey(name));
}

function sessionLeadership(session: DbSession, key: bigint): Leadership {
  let released: Promise<void> | undefined;
  return {
    async alive() {
      try {
        await session.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    release: () =>
      (released ??= releaseLeaderLock(session, key)
        .catch(() => undefined) // a lost connection: the server dropped the lock with it
        .finally(() => session.release())),
  };
}

const inProcess = new WeakMap<Db, Map<string, string>>();

function tryLeadInProcess(db: Db, name: string, holder: string): Leadership | null {
  const held = inProcess.get(db) ?? new Map<string, string>();
  inProcess.set(db, held);
  if (held.has(name)) return null;
  held.set(name, holder);
  let released = false;
  return {
    alive: async () => !released,
    async release() {
      if (released) return;
      released = true;
      held.delete(name);
    },
  };
}
