import { AsyncLocalStorage } from 'node:async_hooks';
import type { DbKind, QueryResult, Tx } from './db';

/**
 * Whether a Db checks for the mistake below: on, except on PostgreSQL under NODE_ENV=production;
 * PALIMPSEST_TRANSACTION_GUARD=on|off decides either way. The check is an assertion about our own
 * code (the test suite runs with it on), and it is not free: on Node 20 an AsyncLocalStorage in use
 * makes every promise of the process run async hooks (measured: 0.05 ms of gateway CPU per request,
 * 12–15 % of its throughput; see docs/benchmarks.md). On PGlite it stays on: there the mistake would
 * hang the whole process without a word, and the embedded store's own cost dwarfs the hooks'.
 */
export function transactionGuardEnabled(env: Readonly<Record<string, string | undefined>>, backend: DbKind = 'postgres'): boolean {
  const setting = env.PALIMPSEST_TRANSACTION_GUARD;
  if (setting === 'on') return true;
  if (setting === 'off') return false;
  if (setting) throw new Error(`PALIMPSEST_TRANSACTION_GUARD must be on or off, got ${JSON.stringify(setting)}`);
  return backend === 'pglite' || env.NODE_ENV !== 'production';
}

/**
 * Catches the one mistake both backends punish differently: using the Db (instead of the
 * transaction handle) from inside a transaction callback. PGlite runs one transaction at a time,
 * so it would deadlock; PostgreSQL would run the query on another connection, outside the transaction.
 * One guard per Db: using a different Db inside the callback stays allowed. Disabled, it checks nothing.
 */
export class TransactionGuard {
  private readonly scope: AsyncLocalStorage<{ open: boolean }> | null;

  constructor(enabled: boolean) {
    this.scope = enabled ? new AsyncLocalStorage() : null;
  }

  assertOutside(operation: string): void {
    if (this.scope?.getStore()?.open) {
      throw new Error(
        `db.${operation}() was called inside db.transaction(): pass the transaction handle down and use it instead`,
      );
    }
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (!this.scope) return fn();
    const state = { open: true };
    try {
      return await this.scope.run(state, fn);
    } finally {
      state.open = false;
    }
  }
}

/** Builds a transaction handle that fails loudly when used after its transaction ended. */
export function transactionHandle(
  query: (text: string, params?: unknown[]) => Promise<QueryResult<any>>,
  exec: (sqlScript: string) => Promise<void>,
): { tx: Tx; end(): void } {
  let ended = false;
  const check = (): void => {
    if (ended) throw new Error('the transaction handle was used after its transaction ended');
  };
  const tx: Tx = {
    query: async <R>(text: string, params?: unknown[]) => {
      check();
      return (await query(text, params)) as QueryResult<R>;
    },
    exec: async (sqlScript: string) => {
      check();
      await exec(sqlScript);
    },
  };
  return { tx, end: () => { ended = true; } };
}
