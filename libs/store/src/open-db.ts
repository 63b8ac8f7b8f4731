import { join } from 'node:path';
import type { Db } from './db';
import { openPgliteDb } from './pglite/pglite-db';
import { openPostgresDb } from './postgres/pg-db';

export interface OpenDbOptions {
  /** PostgreSQL connection string; wins over everything else. */
  databaseUrl?: string;
  /** PGlite data directory (created with its parents when missing). */
  dataDir?: string;
  /** PGlite in memory: nothing is kept after close(). */
  memory?: boolean;
}

/**
 * Chooses the backend: explicit options first (databaseUrl, then dataDir, then memory), else
 * env DATABASE_URL → PostgreSQL, else PGlite at PALIMPSEST_DATA_DIR or `<cwd>/.palimpsest/data`.
 * Migrations are not run here: call migrate(db).
 */
export function openDb(opts: OpenDbOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<Db> {
  if (opts.databaseUrl) return openPostgresDb({ connectionString: opts.databaseUrl });
  if (opts.dataDir) return openPgliteDb({ dataDir: opts.dataDir });
  if (opts.memory) return openPgliteDb({ memory: true });
  if (env.DATABASE_URL) return openPostgresDb({ connectionString: env.DATABASE_URL });
  return openPgliteDb({ dataDir: env.PALIMPSEST_DATA_DIR || join(process.cwd(), '.palimpsest', 'data') });
}
