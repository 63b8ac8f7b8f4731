import { join, resolve } from 'node:path';
import { timeoutsFromEnv, poolMaxFromEnv, type PostgresTimeouts } from './postgres/pg-settings';
import { IMAGE_ENV } from './pglite/pglite-image';
import { isWasmTier, WASM_TIERS, type WasmTier } from './pglite/wasm-tier';
import { transactionGuardEnabled } from './transaction-guard';

/** The process's environment as the parsers read it (a plain record: tests pass their own). */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * The directory under the working directory an embedded store uses when PALIMPSEST_DATA_DIR is not set:
 * core's PALIMPSEST_DIRECTORY, which the path rules reserve (spelled here, not imported: openDb loads in
 * processes that resolve relative modules only; kept-paths.int.spec.ts holds the two equal).
 */
export const DEFAULT_DATA_PARENT = '.palimpsest';

/**
 * The store's configuration, read once at start by the composition root (readStoreConfig) and passed to
 * openDb: which backend, where the embedded data lives, and the PostgreSQL adapter's bounds.
 */
export interface StoreConfig {
  /** DATABASE_URL: PostgreSQL when set. */
  databaseUrl: string | null;
  /** PALIMPSEST_READ_REPLICA_URL: a streaming replica of that database for the reads that tolerate staleness. */
  readReplicaUrl: string | null;
  /** The embedded store's data directory (absolute): PALIMPSEST_DATA_DIR, else `<cwd>/.palimpsest/data`. */
  dataDir: string;
  /** Whether PALIMPSEST_DATA_DIR chose it (the default's parent is made with a .gitignore). */
  dataDirGiven: boolean;
  /** The working directory the default paths hang from. */
  cwd: string;
  /** PALIMPSEST_PGLITE_SHARED_BUFFERS, checked when an embedded store opens. */
  pgliteSharedBuffers: string | undefined;
  /** PALIMPSEST_PGLITE_IMAGE: `off`, another image directory, or undefined for the built one. */
  pgliteImage: string | undefined;
  /** PALIMPSEST_PGLITE_WASM: which WebAssembly tier compiles the embedded PostgreSQL (wasm-tier.ts). */
  pgliteWasm: WasmTier | undefined;
  /** PALIMPSEST_TRANSACTION_GUARD with NODE_ENV, per backend (transaction-guard.ts). */
  transactionGuard: { postgres: boolean; pglite: boolean };
  /** PALIMPSEST_PG_POOL_MAX and PALIMPSEST_PG_*_MS (pg-settings.ts). */
  postgres: { poolMax: number; timeouts: PostgresTimeouts };
}

/** The embedded store's data directory as openDb() chooses it from the environment (absolute). */
export function embeddedDataDirOf(env: Env, cwd: string): string {
  return resolve(cwd, env.PALIMPSEST_DATA_DIR || join(DEFAULT_DATA_PARENT, 'data'));
}

/** Parses the store's variables; an invalid value throws (the process refuses to start). */
export function readStoreConfig(env: Env, cwd: string): StoreConfig {
  if (env.PALIMPSEST_READ_REPLICA_URL && !env.DATABASE_URL) {
    throw new Error('PALIMPSEST_READ_REPLICA_URL names a replica of the PostgreSQL database in DATABASE_URL: set DATABASE_URL too (the embedded store has no replica)');
  }
  return {
    databaseUrl: env.DATABASE_URL || null,
    readReplicaUrl: env.PALIMPSEST_READ_REPLICA_URL || null,
    dataDir: embeddedDataDirOf(env, cwd),
    dataDirGiven: Boolean(env.PALIMPSEST_DATA_DIR),
    cwd,
    pgliteSharedBuffers: env.PALIMPSEST_PGLITE_SHARED_BUFFERS || undefined,
    pgliteImage: env[IMAGE_ENV] || undefined,
    pgliteWasm: wasmTierOf(env.PALIMPSEST_PGLITE_WASM),
    transactionGuard: { postgres: transactionGuardEnabled(env, 'postgres'), pglite: transactionGuardEnabled(env, 'pglite') },
    postgres: { poolMax: poolMaxFromEnv(env), timeouts: timeoutsFromEnv(env) },
  };
}

function wasmTierOf(value: string | undefined): WasmTier | undefined {
  if (!value) return undefined;
  if (isWasmTier(value)) return value;
  throw new Error(`PALIMPSEST_PGLITE_WASM must be one of ${WASM_TIERS.join(', ')}, got ${JSON.stringify(value)}: baseline (the default) keeps memory low, optimized lets V8 recompile hot code`);
}
