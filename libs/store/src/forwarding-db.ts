import type { Db, DbKind, DbSession, ListenGap, QueryResult, Tx } from './db';

/**
 * A Db that forwards everything to another one: decorators (metrics, profiling, statement rewriting)
 * extend it and override only what they observe or change.
 */
export class ForwardingDb implements Db {
  constructor(protected readonly inner: Db) {}

  get kind(): DbKind {
    return this.inner.kind;
  }

  query<R = any>(text: string, params?: unknown[]): Promise<QueryResult<R>> {
    return this.inner.query<R>(text, params);
  }

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.inner.transaction(fn);
  }

  exec(sqlScript: string): Promise<void> {
    return this.inner.exec(sqlScript);
  }

  listen(channel: string, onPayload: (payload: string) => void, onGap?: (gap: ListenGap) => void): Promise<() => Promise<void>> {
    return this.inner.listen(channel, onPayload, onGap);
  }

  session(): Promise<DbSession> {
    return this.inner.session();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
