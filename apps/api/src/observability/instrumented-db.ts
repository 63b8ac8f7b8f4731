import type { Db, QueryResult, Tx } from '@palimpsest/store/db';

/**
 * The gateway's Db: the store's own, counting what holds a connection right now. The Db port does not
 * expose the pg pool, so "busy" is measured here: each open transaction and each standalone query
 * holds one pooled connection (PGlite has exactly one, shared in turn).
 */
export class InstrumentedDb implements Db {
  busy = 0;

  constructor(
    private readonly inner: Db,
    private readonly onTransaction: (seconds: number) => void = () => undefined,
  ) {}

  get kind() {
    return this.inner.kind;
  }

  async query<R = any>(text: string, params?: unknown[]): Promise<QueryResult<R>> {
    this.busy++;
    try {
      return await this.inner.query<R>(text, params);
    } finally {
      this.busy--;
    }
  }

  async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    this.busy++;
    const started = performance.now();
    try {
      return await this.inner.transaction(fn);
    } finally {
      this.busy--;
      this.onTransaction((performance.now() - started) / 1000);
    }
  }

  exec(sqlScript: string): Promise<void> {
    return this.inner.exec(sqlScript);
  }

  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    return this.inner.listen(channel, onPayload);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
