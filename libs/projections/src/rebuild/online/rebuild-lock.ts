import type { Db } from '@palimpsest/store/db';
import { tryNamedLease } from '@palimpsest/store/advisory-lease';

/**
 * One online rebuild per read model at a time: two would share one shadow schema. On PostgreSQL a
 * named lease (a session advisory lock on its own connection for the rebuild's life; the server drops it
 * if the process dies); the embedded store has one process, so there a set of the names being rebuilt
 * suffices.
 */

const running = new WeakMap<Db, Set<string>>();
/** Names being rebuilt by this process, whatever the Db (the embedded store's status reads it: one process owns it). */
const rebuildingHere = new Map<string, number>();

/** Whether this process is rebuilding `name` online now (on PostgreSQL, status reads the lease instead). */
export function isRebuildingHere(name: string): boolean {
  return (rebuildingHere.get(name) ?? 0) > 0;
}

function mark(name: string, by: 1 | -1): void {
  const n = (rebuildingHere.get(name) ?? 0) + by;
  if (n > 0) rebuildingHere.set(name, n);
  else rebuildingHere.delete(name);
}

/** The name of an online rebuild's lease on `name` (its advisory key is namedLockKey of this). */
export const rebuildLockName = (name: string) => `palimpsest-rebuild:${name}`;

export async function holdRebuildLock(db: Db, name: string): Promise<(() => Promise<void>) | null> {
  const local = running.get(db) ?? new Set<string>();
  running.set(db, local);
  if (local.has(name)) return null;
  local.add(name);
  mark(name, 1);
  const forget = () => {
    local.delete(name);
    mark(name, -1);
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
