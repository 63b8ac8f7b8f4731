import type { Db, QueryResult, Tx } from '../db';
import { ForwardingDb } from '../forwarding-db';

/**
 * A Db that counts what its callers send: statements (inside and outside transactions, each a round
 * trip; BEGIN and COMMIT not counted) and transactions. `log` keeps each statement's first words.
 */
export class CountingDb extends ForwardingDb {
  statements = 0;
  transactions = 0;
  readonly log: string[] = [];

  reset(): void {
    this.statements = 0;
    this.transactions = 0;
    this.log.length = 0;
  }

  private note(text: string, inTx: boolean): void {
    this.statements++;
    this.log.push(`${inTx ? '  tx ' : ''}${text.replace(/\s+/g, ' ').trim().slice(0, 120)}`);
  }

  override query<R = any>(text: string, params?: unknown[]): Promise<QueryResult<R>> {
    this.note(text, false);
    return this.inner.query<R>(text, params);
  }

  override transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    this.transactions++;
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
