import { AsyncLocalStorage } from 'node:async_hooks';
import type { QueryResult, Tx } from './db';

/**
 * Catches the one mistake both backends punish differently: using the Db (instead of the
 * transaction handle) from inside a transaction callback. PGlite runs one transaction at a time,
 * so it would deadlock; PostgreSQL would run the query on another connection, outside the transaction.
 * One guard per Db: using a different Db inside the callback stays allowed.
 */
export class TransactionGuard {
  private readonly scope = new AsyncLocalStorage<{ open: boolean }>();

  assertOutside(operation: string): void {
    if (this.scope.getStore()?.open) {
      throw new Error(
        `db.${operation}() was called inside db.transaction(): pass the transaction handle down and use it instead`,
      );
    }
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
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
