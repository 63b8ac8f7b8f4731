import type { Db } from './db';
import { embeddedDataDirOf, prepareDefaultDataParent } from './kept-paths';
import type { PgliteDbOptions } from './pglite/pglite-db';
import { sharedBuffersProblem } from './pglite/shared-buffers';

// Each backend's driver loads only when it is chosen (a CLI process starts faster by what it skips).
const postgres = async (connectionString: string) => (await import('./postgres/pg-db')).openPostgresDb({ connectionString });
const pglite = async (opts: PgliteDbOptions) => (await import('./pglite/pglite-db')).openPgliteDb(opts);

export interface OpenDbOptions {
  /** PostgreSQL connection string; wins over everything else. */
  databaseUrl?: string;
  /** PGlite data directory (created with its parents when missing). */
  dataDir?: string;
  /** PGlite in memory: nothing is kept after close(). */
  memory?: boolean;
  /** Told what the first start of a PGlite data directory is doing; default: stderr when no option chose the store. */
  onProgress?: (line: string) => void;
}

const toStderr = (line: string): void => {
  process.stderr.write(`palimpsest: ${line}\n`);
};

/**
 * Chooses the backend: explicit options first (databaseUrl, then dataDir, then memory), else
 * env DATABASE_URL → PostgreSQL, else PGlite at PALIMPSEST_DATA_DIR or `<cwd>/.palimpsest/data`.
 * Call migrate(db) before use: only a PGlite data directory's first start is migrated here (pglite-db.ts).
 * PALIMPSEST_PGLITE_SHARED_BUFFERS sets PGlite's shared_buffers (default 32MB).
 */
export function openDb(opts: OpenDbOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<Db> {
  if (opts.databaseUrl) return postgres(opts.databaseUrl);
  const embedded: PgliteDbOptions | undefined = opts.dataDir
    ? { dataDir: opts.dataDir, onProgress: opts.onProgress }
    : opts.memory
      ? { memory: true }
      : env.DATABASE_URL
        ? undefined
        : { dataDir: embeddedDataDirOf(env), onProgress: opts.onProgress ?? toStderr };
  if (!embedded) return postgres(env.DATABASE_URL!);
  if ('dataDir' in embedded && !opts.dataDir && !env.PALIMPSEST_DATA_DIR) {
    try {
      prepareDefaultDataParent();
    } catch (error) {
      return Promise.reject(error);
    }
  }
  const sharedBuffers = env.PALIMPSEST_PGLITE_SHARED_BUFFERS || undefined;
  const problem = sharedBuffers === undefined ? undefined : sharedBuffersProblem(sharedBuffers);
  if (problem) return Promise.reject(new Error(`PALIMPSEST_PGLITE_SHARED_BUFFERS ${problem}`));
  return pglite({ ...embedded, sharedBuffers });
}
