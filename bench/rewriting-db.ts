import type { Db, QueryResult, Tx } from '@palimpsest/store/db';
import { ForwardingDb } from '@palimpsest/store/forwarding-db';

/**
 * Diagnostic only: a Db that rewrites statement text before it is sent, to measure what one part of
 * a statement costs (here: the application's NOTIFY) without touching the application. `rewrites`
 * counts the statements actually changed, so a rewrite that stopped matching is noticed.
 */
export class RewritingDb extends ForwardingDb {
  rewrites = 0;

  constructor(
    inner: Db,
    private readonly rewrite: (text: string) => string,
  ) {
    super(inner);
  }

  private text(text: string): string {
    const out = this.rewrite(text);
    if (out !== text) this.rewrites++;
    return out;
  }

  override query<R = any>(text: string, params?: unknown[]): Promise<QueryResult<R>> {
    return this.inner.query<R>(this.text(text), params);
  }

  override transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.inner.transaction((tx) =>
      fn({ query: <R>(text: string, params?: unknown[]) => tx.query<R>(this.text(text), params), exec: (s) => tx.exec(s) }),
    );
  }

}

/** The append statement with pg_notify(channel, payload) replaced by concat(channel, payload): same shape, no NOTIFY. */
export const dropNotify = (text: string): string => text.replace(/pg_notify\(/g, 'concat(');
