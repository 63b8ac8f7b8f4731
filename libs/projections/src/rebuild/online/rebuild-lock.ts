import type { Db } from '@palimpsest/store/db';

/**
 * One online rebuild per read model at a time: two would share one shadow schema. On PostgreSQL a
 * session advisory lock, held on its own connection for the rebuild's life (the server drops it if the
 * process dies); the embedded store has one process, so there a set of the names being rebuilt suffices.
 */

const running = new WeakMap<Db, Set<string>>();

export async function holdRebuildLock(db: Db, name: string): Promise<(() => Promise<void>) | null> {
  const local = running.get(db) ?? new Set<string>();
  running.set(db, local);
  if (local.has(name)) return null;
  local.add(name);
  if (db.kind === 'pglite') return async () => void local.delete(name);
  const session = await db.session();
  try {
    const { rows } = await session.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(hashtext($1)) AS locked`, [`palimpsest-rebuild:${name}`]);
    if (!rows[0]?.locked) {
      await session.release();
      local.delete(name);
      return null;
    }
  } catch (error) {
    await session.release();
    local.delete(name);
    throw error;
  }
  return async () => {
    try {
      await session.query(`SELECT pg_advisory_unlock(hashtext($1))`, [`palimpsest-rebuild:${name}`]);
    } finally {
      await session.release();
      local.delete(name);
    }
  };
}
