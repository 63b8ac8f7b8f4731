/**
 * The thin database port every other library uses. Two adapters implement it:
 * PostgreSQL through `pg` (postgres/pg-db.ts) and in-process PGlite (pglite/pglite-db.ts).
 * SQL written against it must run on both (PostgreSQL 15 and PGlite's PostgreSQL 18).
 *
 * Both adapters return int8 (bigint) columns as JS numbers and throw when a value is not a
 * safe integer; timestamptz comes back as a Date; json/jsonb as parsed values.
 */

export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

export interface Sql {
  query<R = any>(text: string, params?: unknown[]): Promise<QueryResult<R>>;
}

/**
 * The handle passed to a transaction callback. It is an `Sql` (use it for everything inside the
 * transaction) plus `exec` for multi-statement scripts (migrations). The handle is dead after the
 * transaction ends: using it then throws.
 */
export interface Tx extends Sql {
  exec(sqlScript: string): Promise<void>;
}

export type DbKind = 'postgres' | 'pglite';

/**
 * One connection held by one caller until release(), for session-level state that must live exactly as
 * long as the caller's need (a session advisory lock: libs/store/src/advisory-lease.ts). Not for the
 * application's statements, which go through query/transaction. Release before closing the Db.
 */
export interface DbSession extends Sql {
  /** Back to the pool (destroyed when the connection failed). Idempotent. */
  release(): Promise<void>;
}

/**
 * A break in notification delivery: `lost` when the listener connection failed (anything notified from
 * now on may be missed), `resumed` once it listens again (anything notified in between was missed).
 */
export type ListenGap = 'lost' | 'resumed';

export interface Db extends Sql {
  readonly kind: DbKind;
  /**
   * BEGIN (READ COMMITTED) … COMMIT; ROLLBACK when `fn` throws, then rethrow. Nothing is retried.
   * Inside `fn`, use `tx` only: calling this Db's query/transaction/exec from inside the callback
   * throws (on PGlite it would deadlock; on PostgreSQL it would silently run outside the transaction).
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs a multi-statement script outside any explicit transaction. */
  exec(sqlScript: string): Promise<void>;
  /**
   * Subscribes to NOTIFY on `channel` (a lowercase SQL identifier). Resolves once listening;
   * the returned function unsubscribes. Notifications are a wake-up hint, not a delivery guarantee:
   * anything sent while a PostgreSQL listener connection is re-established is lost, so consumers
   * must also read (readAll) on their own. `onGap` is told when delivery breaks and when it is back,
   * so that whatever the notifications keep fresh (caches, waits) is re-read then (PGlite never breaks).
   */
  listen(channel: string, onPayload: (payload: string) => void, onGap?: (gap: ListenGap) => void): Promise<() => Promise<void>>;
  /**
   * Holds a connection until the session is released: out of the pool on PostgreSQL (so it costs one
   * pool slot for its life); on PGlite the one connection, shared with every other statement.
   */
  session(): Promise<DbSession>;
  /** Closes pools, listeners and (PGlite) the data directory lock. Idempotent. */
  close(): Promise<void>;
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/** LISTEN takes an identifier; both adapters accept only names that need no quoting. */
export function assertChannelName(channel: string): void {
  if (!CHANNEL.test(channel)) {
    throw new TypeError(`invalid notification channel ${JSON.stringify(channel)}: use [a-z_][a-z0-9_]*, at most 63 characters`);
  }
}
