import type { Db, QueryResult, Tx } from '@palimpsest/store/db';
import { ForwardingDb } from '@palimpsest/store/forwarding-db';

/**
 * The gateway's Db: the store's own, counting what holds a connection right now. The Db port does not
 * expose the pg pool, so "busy" is measured here: each open transaction and each standalone query
 * holds one pooled connection (PGlite has exactly one, shared in turn).
 */
export class InstrumentedDb extends ForwardingDb {
  busy = 0;

  constructor(
    inner: Db,
    private readonly onTransaction: (seconds: number) => void = () => undefined,
  ) {
    super(inner);
  }

  override async query<R = any>(text: string, params?: unknown[]): Promise<QueryResult<R>> {
    this.busy++;
    try {
      return await this.inner.query<R>(text, params);
    } finally {
      this.busy--;
    }
  }

  override async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    this.busy++;
    const started = performance.now();
    try {
      return await this.inner.transaction(fn);
    } finally {
      this.busy--;
      this.onTransaction((performance.now() - started) / 1000);
    }
  }

}
