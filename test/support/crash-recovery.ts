import { readFileSync } from 'node:fs';
import pg from 'pg';
import { lockPathFor } from '@palimpsest/store/pglite/data-dir-lock';
import { openDb } from '@palimpsest/store/open-db';

/** What a crash test needs besides the gateway: who holds a PGlite store, when a dead client's backends are gone, the raw event log. */

/** The pid in `<dataDir>.lock` (the embedded store's owner), or null when there is no lock file. */
export function lockHolder(dataDir: string): number | null {
  try {
    return Number(readFileSync(lockPathFor(dataDir), 'utf8').trim());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Waits until PostgreSQL has no session left on the database of `databaseUrl`. A killed client's
 * backends stay until they notice the closed socket: one running a statement finishes it first (an
 * autocommit statement then commits with nobody to tell). Waiting for them makes what the store holds
 * final before the test reads it.
 */
export async function waitForNoSessions(databaseUrl: string, timeoutMs = 15_000): Promise<void> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
      if (rows[0]!.n === 0) return;
      if (Date.now() > deadline) throw new Error(`${rows[0]!.n} sessions still on ${name} ${timeoutMs} ms after their client died`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await client.end();
  }
}

export interface LoggedEvent {
  global_position: number;
  stream_id: string;
  stream_version: number;
  event_type: string;
  data: Record<string, any>;
}

/** Every event of the store, in log order, read straight from the events table (no gateway may hold an embedded store). */
export async function readEventLog(env: NodeJS.ProcessEnv): Promise<LoggedEvent[]> {
  const db = await openDb(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.PALIMPSEST_DATA_DIR! });
  try {
    const { rows } = await db.query<LoggedEvent>(
      'SELECT global_position, stream_id, stream_version, event_type, data FROM events ORDER BY global_position',
    );
    return rows.map((r) => ({ ...r, global_position: Number(r.global_position), stream_version: Number(r.stream_version) }));
  } finally {
    await db.close();
  }
}

/** One sample of a Prometheus text exposition: `name value` (no labels). */
export function metricValue(exposition: string, name: string): number {
  const line = exposition.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : 0;
}
