import { readStoreConfig, type StoreConfig } from '@palimpsest/store/store-config';
import { transactionGuardEnabled } from '@palimpsest/store/transaction-guard';

/**
 * Benchmarks measure Palimpsest as deployed (docker/Dockerfile sets NODE_ENV=production): development
 * assertions off, in this process and in the servers it starts (they inherit its environment). An
 * explicit NODE_ENV is kept. Returns the setting, for the report's header line.
 */
export function asDeployed(): string {
  process.env.NODE_ENV ??= 'production';
  const guard = process.env.PALIMPSEST_TRANSACTION_GUARD;
  return `NODE_ENV=${process.env.NODE_ENV}${guard ? `, PALIMPSEST_TRANSACTION_GUARD=${guard}` : ''}`;
}

/**
 * The store settings of this process, read from its environment when a benchmark opens a store (so
 * after asDeployed): the transaction guard as NODE_ENV and PALIMPSEST_TRANSACTION_GUARD set it.
 */
export function benchStore(): StoreConfig {
  return readStoreConfig(process.env, process.cwd());
}

/** The transaction guard option for a store a benchmark opens itself (openPostgresDb, openPgliteDb). */
export function benchGuard(backend: 'postgres' | 'pglite'): { transactionGuard: boolean } {
  return { transactionGuard: transactionGuardEnabled(process.env, backend) };
}
