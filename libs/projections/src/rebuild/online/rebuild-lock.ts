import type { Db } from '@palimpsest/store/db';

/**
 * One online rebuild per read model at a time: two would share one shadow schema. On PostgreSQL a
 * session advisory lock, held on its own connection for the rebuild's life (the server drops it if the
 * process dies); the embedded store has one process, so there a set of the names being rebuilt suffices.
 */

const running = new WeakMap<Db, Set<string>>();
/** Names being rebuilt by this process, whatever the Db (the embedded store's status reads it: one process owns it). */
const rebuildingHere = new Map<string, number>();

/** Whether this process is rebuilding `name` online now (on PostgreSQL, status reads the advisory lock instead). */
export function isRebuildingHere(name: string): boolean {
  return (rebuildingHere.get(name) ?? 0) > 0;
}

function mark(name: string, by: 1 | -1): void {
  const n = (rebuildingHere.get(name) ?? 0) + by;
  if (n > 0) rebuildingHere.set(name, n);
  else rebuildingHere.delete(name);
}

/** The advisory lock key of an online rebuild of `name` (hashtext of this text). */
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
  const session = await db.session();
  try {
    const { rows } = await session.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(hashtext($1)) AS locked`, [rebuildLockName(name)]);
    if (!rows[0]?.locked) {
      await session.release();
      forget();
      return null;
    }
  } catch (error) {
    await session.release();
    forget();
    throw error;
  }
  return async () => {
    try {
      await session.query(`SELECT pg_advisory_unlock(hashtext($1))`, [rebuildLockName(name)]);
    } finally {
      await session.release();
      forget();
    }
  };
}
