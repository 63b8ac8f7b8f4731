import type { Db } from '@palimpsest/store/db';
import { tryNamedLease } from '@palimpsest/store/advisory-lease';

/**
 * One online rebuild per read model at a time: two would share one shadow schema. On PostgreSQL a
 * named lease (a session advisory lock on its own connection for the rebuild's life; the server drops it
 * if the process dies); the embedded store has one process, so there a set of the names being rebuilt
 * suffices.
 */

/** The stores this process is rebuilding each name on (the embedded store's status reads it: one process owns it). */
const running = new Map<string, Set<Db>>();

/** Whether this process is rebuilding `name` online now (on PostgreSQL, status reads the lease instead). */
export function isRebuildingHere(name: string): boolean {
  return (running.get(name)?.size ?? 0) > 0;
}

/** The name of an online rebuild's lease on `name` (its advisory key is namedLockKey of this). */
export const rebuildLockName = (name: string) => `palimpsest-rebuild:${name}`;

export async function holdRebuildLock(db: Db, name: string): Promise<(() => Promise<void>) | null> {
  const stores = running.get(name) ?? new Set<Db>();
  if (stores.has(db)) return null;
  running.set(name, stores.add(db));
  const forget = () => {
    stores.delete(db);
    if (stores.size === 0) running.delete(name);
  };
  if (db.kind === 'pglite') return async () => forget();
  try {
    const lease = await tryNamedLease(db, rebuildLockName(name));
    if (!lease) {
      forget();
      return null;
    }
    return async () => {
      try {
        await lease.release();
      } finally {
        forget();
      }
    };
  } catch (error) {
    forget();
    throw error;
  }
}
