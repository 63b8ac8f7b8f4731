import type { Db, QueryResult, Tx } from '../db';
import { ForwardingDb } from '../forwarding-db';

/**
 * A Db that counts what its callers send: statements (inside and outside transactions, each a round
 * trip; BEGIN and COMMIT not counted), transactions, and durable commits: each transaction, and each
 * statement outside one that is not a SELECT (an autocommitted write). `log` keeps each statement's first words.
 */
export class CountingDb extends ForwardingDb {
  statements = 0;
  transactions = 0;
  commits = 0;
  readonly log: string[] = [];

  reset(): void {
    this.statements = 0;
    this.transactions = 0;
    this.commits = 0;
    this.log.length = 0;
  }

  private note(text: string, inTx: boolean): void {
    this.statements++;
    this.log.push(`${inTx ? '  tx ' : ''}${text.replace(/\s+/g, ' ').trim().slice(0, 120)}`);
  }

  override query<R = any>(text: string, params?: unknown[]): Promise<QueryResult<R>> {
    this.note(text, false);
    if (!/^\s*SELECT\b/i.test(text)) this.commits++;
    return this.inner.query<R>(text, params);
  }

  override transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    this.transactions++;
    this.commits++;
    return this.inner.transaction((tx) =>
      fn({
        query: <R>(text: string, params?: unknown[]) => {
          this.note(text, true);
          return tx.query<R>(text, params);
        },
        exec: (script: string) => tx.exec(script),
      }),
    );
  }
}
