import type { Db } from './db';
import { prepareDefaultDataParent } from './kept-paths';
import type { PgliteDbOptions } from './pglite/pglite-db';
import { sharedBuffersProblem } from './pglite/shared-buffers';
import { readStoreConfig, type StoreConfig } from './store-config';

// Each backend's driver loads only when it is chosen (a CLI process starts faster by what it skips).
const postgres = async (connectionString: string, config: StoreConfig, probe = true) =>
  (await import('./postgres/pg-db')).openPostgresDb({
    probe,
    connectionString,
    poolMax: config.postgres.poolMax,
    timeouts: config.postgres.timeouts,
    transactionGuard: config.transactionGuard.postgres,
  });
const pglite = async (opts: PgliteDbOptions) => (await import('./pglite/pglite-db')).openPgliteDb(opts);

/** The streaming replica the configuration names (PALIMPSEST_READ_REPLICA_URL), or null. Reads only: no migrate. */
/** The read replica as opened at start: `unreachable` says why it did not answer then (its reads go to the primary until it does). */
export interface OpenedReplica {
  db: Db;
  unreachable: string | null;
}

/**
 * PALIMPSEST_READ_REPLICA_URL's pool, or null without one. A replica that does not answer at start does
 * not stop the gateway: only reads that tolerate staleness go to it, and the primary serves them meanwhile.
 */
export async function openReadReplica(config: StoreConfig): Promise<OpenedReplica | null> {
  if (!config.readReplicaUrl) return null;
  const db = await postgres(config.readReplicaUrl, config, false);
  try {
    await db.query('SELECT 1');
    return { db, unreachable: null };
  } catch (error) {
    return { db, unreachable: error instanceof Error ? error.message : String(error) };
  }
}

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
 * Chooses the backend: explicit options first (databaseUrl, then dataDir, then memory), else the
 * configuration's (store-config.ts, read once at start): DATABASE_URL → PostgreSQL, else PGlite at
 * PALIMPSEST_DATA_DIR or `<cwd>/.palimpsest/data`.
 * Call migrate(db) before use: only a PGlite data directory's first start is migrated here (pglite-db.ts).
 * PALIMPSEST_PGLITE_SHARED_BUFFERS sets PGlite's shared_buffers (default 32MB).
 */
export function openDb(opts: OpenDbOptions & ({ databaseUrl: string } | { dataDir: string } | { memory: true }), config?: StoreConfig): Promise<Db>;
export function openDb(opts: OpenDbOptions, config: StoreConfig): Promise<Db>;
export function openDb(opts: OpenDbOptions, config: StoreConfig = readStoreConfig({}, process.cwd())): Promise<Db> {
  if (opts.databaseUrl) return postgres(opts.databaseUrl, config);
  const embedded: PgliteDbOptions | undefined = opts.dataDir
    ? { dataDir: opts.dataDir, onProgress: opts.onProgress }
    : opts.memory
      ? { memory: true }
      : config.databaseUrl
        ? undefined
        : { dataDir: config.dataDir, onProgress: opts.onProgress ?? toStderr };
  if (!embedded) return postgres(config.databaseUrl!, config);
  if ('dataDir' in embedded && !opts.dataDir && !config.dataDirGiven) {
    try {
      prepareDefaultDataParent(config.cwd);
    } catch (error) {
      return Promise.reject(error);
    }
  }
  const sharedBuffers = config.pgliteSharedBuffers;
  const problem = sharedBuffers === undefined ? undefined : sharedBuffersProblem(sharedBuffers);
  if (problem) return Promise.reject(new Error(`PALIMPSEST_PGLITE_SHARED_BUFFERS ${problem}`));
  return pglite({ ...embedded, sharedBuffers, image: config.pgliteImage, wasmTier: config.pgliteWasm, transactionGuard: config.transactionGuard.pglite });
}
