import { createHash } from 'node:crypto';
import pg from 'pg';
import { assertChannelName, type Db, type DbSession, type ListenGap, type QueryResult, type Tx } from '../db';
import { INT8_ARRAY_OID, INT8_OID, mapInt8Array, parseInt8 } from '../int8';
import { TransactionGuard, transactionHandle } from '../transaction-guard';
import { Checkout, refusedByServer } from './pg-checkout';
import { parseHosts, PrimaryFinder } from './pg-hosts';
import { PgListener } from './pg-listener';
import { poolMaxFromEnv, timeoutsFromEnv, type PostgresTimeouts } from './pg-settings';

const DEFAULTS: Readonly<Record<string, string | undefined>> = {};

export interface PostgresDbOptions {
  connectionString: string;
  /** Pool size; default 10 (the root passes PALIMPSEST_PG_POOL_MAX: store-config.ts). */
  poolMax?: number;
  /** Timeouts; default pg-settings.ts's (the root passes PALIMPSEST_PG_*_MS: store-config.ts). */
  timeouts?: Partial<PostgresTimeouts>;
  /** Errors nobody awaits (idle pool clients, the listener connection). Default: a process warning. */
  onError?: (error: Error) => void;
  /** The transaction guard (transaction-guard.ts); default on (the root passes PALIMPSEST_TRANSACTION_GUARD / NODE_ENV). */
  transactionGuard?: boolean;
  /** false: open the pool without asking the server first (a read replica may be down at start). Default true. */
  probe?: boolean;
}


/** int8 → number for this pool only: the global pg.types registry is left alone. */
const int8AsNumber = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return parseInt8;
    if (oid === INT8_ARRAY_OID) {
      const parseArray = pg.types.getTypeParser(INT8_ARRAY_OID as Parameters<typeof pg.types.getTypeParser>[0], 'text') as (text: string) => unknown;
      return (text: string) => mapInt8Array(parseArray(text));
    }
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

/**
 * Parameterized statements are mostly the command path (lock, key lookup, append with projections,
 * the optimistic one-statement commit) and the reads: a small fixed set of texts. Naming them lets each connection parse and plan them
 * once. The name is derived from the text, so one name always means one text; past the cap,
 * statements run unnamed rather than grow every connection's statement cache without bound.
 */
const PREPARED_CAP = 256;
const preparedNames = new Map<string, string>();

function preparedQuery(text: string, params?: unknown[]): pg.QueryConfig {
  if (!params || params.length === 0) return { text };
  let name = preparedNames.get(text);
  if (!name && preparedNames.size < PREPARED_CAP) {
    name = `pal_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    preparedNames.set(text, name);
  }
  return name ? { name, text, values: params } : { text, values: params };
}

const defaultOnError = (error: Error): void => {
  process.emitWarning(`palimpsest store (postgres): ${error.message}`, { code: 'PALIMPSEST_STORE' });
};

export async function openPostgresDb(options: PostgresDbOptions): Promise<Db> {
  const db = new PostgresDb(options);
  if (options.probe === false) return db;
  try {
    await db.query('SELECT 1');
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

class PostgresDb implements Db {
  readonly kind = 'postgres' as const;
  private readonly pool: pg.Pool;
  private readonly guard: TransactionGuard;
  private readonly onError: (error: Error) => void;
  private readonly timeouts: PostgresTimeouts;
  private readonly listener: PgListener;
  private closing: Promise<void> | undefined;

  constructor(options: PostgresDbOptions) {
    this.onError = options.onError ?? defaultOnError;
    this.guard = new TransactionGuard(options.transactionGuard ?? true);
    this.timeouts = { ...timeoutsFromEnv(DEFAULTS), ...options.timeouts };
    const t = this.timeouts;
    // Several servers named (a primary and its standbys): every connection goes to the writable one.
    const hosts = parseHosts(options.connectionString);
    const connectionString = hosts?.base ?? options.connectionString;
    const stream = hosts ? new PrimaryFinder(hosts, { connectionTimeoutMillis: t.connectTimeoutMs }).stream() : undefined;
    this.pool = new pg.Pool({
      connectionString,
      ...(stream ? { stream } : {}),
      max: options.poolMax ?? poolMaxFromEnv(DEFAULTS),
      connectionTimeoutMillis: t.connectTimeoutMs,
      statement_timeout: t.statementTimeoutMs,
      query_timeout: t.queryTimeoutMs,
      idle_in_transaction_session_timeout: t.idleInTransactionTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: t.keepAliveMs,
      application_name: 'palimpsest',
      types: int8AsNumber,
    });
    this.pool.on('error', (error) => this.onError(error));
    this.listener = new PgListener({ connectionString, ...(stream ? { stream } : {}) }, t, (error) => this.onError(error));
  }

  async query<R = any>(text: string, params?: unknown[]): Promise<QueryResult<R>> {
    this.guard.assertOutside('query');
    this.assertOpen();
    const checkout = await this.checkout();
    let result: pg.QueryResult;
    try {
      result = await checkout.client.query(preparedQuery(text, params));
    } catch (error) {
      await checkout.release(error);
      throw error;
    }
    await checkout.release();
    return { rows: result.rows as R[], rowCount: result.rowCount ?? result.rows.length };
  }

  async exec(sqlScript: string): Promise<void> {
    this.guard.assertOutside('exec');
    this.assertOpen();
    const checkout = await this.checkout();
    try {
      await checkout.client.query(sqlScript); // no parameters: simple protocol, several statements allowed
    } catch (error) {
      await checkout.release(error);
      throw error;
    }
    await checkout.release();
  }

  async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    this.guard.assertOutside('transaction');
    this.assertOpen();
    const checkout = await this.checkout();
    const { client } = checkout;
    // A statement that failed without the server's answer (a timeout, a lost connection) leaves the
    // session in an unknown state: no ROLLBACK is queued behind it; the connection is destroyed, which
    // ends the transaction on the server.
    let unusable: Error | undefined;
    const run = async <R>(statement: Promise<R>): Promise<R> => {
      try {
        return await statement;
      } catch (error) {
        if (!refusedByServer(error)) unusable ??= error as Error;
        throw error;
      }
    };
    const { tx, end } = transactionHandle(
      async (text, params) => {
        const result = await run(client.query(preparedQuery(text, params)));
        return { rows: result.rows, rowCount: result.rowCount ?? result.rows.length };
      },
      async (sqlScript) => {
        await run(client.query(sqlScript));
      },
    );
    try {
      await run(client.query('BEGIN ISOLATION LEVEL READ COMMITTED'));
      const result = await this.guard.run(() => fn(tx));
      end();
      await run(client.query('COMMIT'));
      return result;
    } catch (error) {
      end();
      if (!unusable && !checkout.broken) {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          unusable = new Error('ROLLBACK failed: the connection is unusable', { cause: rollbackError });
        }
      }
      throw error;
    } finally {
      await checkout.release(unusable);
    }
  }

  async listen(channel: string, onPayload: (payload: string) => void, onGap?: (gap: ListenGap) => void): Promise<() => Promise<void>> {
    assertChannelName(channel);
    this.guard.assertOutside('listen');
    this.assertOpen();
    return this.listener.listen(channel, { onPayload, onGap });
  }

  async session(): Promise<DbSession> {
    this.guard.assertOutside('session');
    this.assertOpen();
    const checkout = await this.checkout();
    // As in transaction(): a statement that failed without the server's answer leaves the session unknown.
    let unusable: Error | undefined;
    let released: Promise<void> | undefined;
    return {
      async query<R = any>(text: string, params?: unknown[]): Promise<QueryResult<R>> {
        if (released) throw new Error('the session was released');
        try {
          const result = await checkout.client.query(preparedQuery(text, params));
          return { rows: result.rows as R[], rowCount: result.rowCount ?? result.rows.length };
        } catch (error) {
          if (!refusedByServer(error)) unusable ??= error as Error;
          throw error;
        }
      },
      release: () => (released ??= checkout.release(unusable)),
    };
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.listener.close();
      await this.pool.end();
    })();
    return this.closing;
  }

  private checkout(): Promise<Checkout> {
    return Checkout.take(this.pool, this.timeouts.queryTimeoutMs);
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('the database was closed');
  }
}
