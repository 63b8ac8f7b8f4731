import { createHash } from 'node:crypto';
import pg from 'pg';
import createSubscriber, { type Subscriber } from 'pg-listen';
import { assertChannelName, type Db, type QueryResult, type Tx } from '../db';
import { INT8_ARRAY_OID, INT8_OID, mapInt8Array, parseInt8 } from '../int8';
import { TransactionGuard, transactionGuardEnabled, transactionHandle } from '../transaction-guard';

export interface PostgresDbOptions {
  connectionString: string;
  /** Pool size; default PALIMPSEST_PG_POOL_MAX or 10. */
  poolMax?: number;
  /** How long to wait for a pooled connection before failing; default 10 s. */
  connectionTimeoutMillis?: number;
  /** Errors nobody awaits (idle pool clients, the listener connection). Default: a process warning. */
  onError?: (error: Error) => void;
}

const DEFAULT_POOL_MAX = 10;

export function poolMaxFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.PALIMPSEST_PG_POOL_MAX;
  if (raw === undefined || raw === '') return DEFAULT_POOL_MAX;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`PALIMPSEST_PG_POOL_MAX must be a positive integer, got ${JSON.stringify(raw)}`);
  }
  return value;
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
  private readonly guard = new TransactionGuard(transactionGuardEnabled(process.env, 'postgres'));
  private readonly onError: (error: Error) => void;
  private subscriber: Promise<Subscriber> | undefined;
  private readonly channels = new Map<string, { callbacks: Set<(payload: string) => void>; ready: Promise<void> }>();
  private closing: Promise<void> | undefined;

  constructor(private readonly options: PostgresDbOptions) {
    this.onError = options.onError ?? defaultOnError;
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolMax ?? poolMaxFromEnv(),
      connectionTimeoutMillis: options.connectionTimeoutMillis ?? 10_000,
      application_name: 'palimpsest',
      types: int8AsNumber,
    });
    this.pool.on('error', (error) => this.onError(error));
  }

  async query<R = any>(text: string, params?: unknown[]): Promise<QueryResult<R>> {
    this.guard.assertOutside('query');
    this.assertOpen();
    const result = await this.pool.query(preparedQuery(text, params));
    return { rows: result.rows as R[], rowCount: result.rowCount ?? result.rows.length };
  }

  async exec(sqlScript: string): Promise<void> {
    this.guard.assertOutside('exec');
    this.assertOpen();
    await this.pool.query(sqlScript); // no parameters: simple protocol, several statements allowed
  }

  async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    this.guard.assertOutside('transaction');
    this.assertOpen();
    const client = await this.pool.connect();
    let broken: Error | undefined;
    const { tx, end } = transactionHandle(
      async (text, params) => {
        const result = await client.query(preparedQuery(text, params));
        return { rows: result.rows, rowCount: result.rowCount ?? result.rows.length };
      },
      async (sqlScript) => {
        await client.query(sqlScript);
      },
    );
    try {
      await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
      const result = await this.guard.run(() => fn(tx));
      end();
      await client.query('COMMIT');
      return result;
    } catch (error) {
      end();
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        broken = rollbackError as Error; // the connection is unusable: destroy it rather than pool it
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    assertChannelName(channel);
    this.guard.assertOutside('listen');
    this.assertOpen();
    const subscriber = await this.sharedSubscriber();
    let entry = this.channels.get(channel);
    if (!entry) {
      const callbacks = new Set<(payload: string) => void>();
      subscriber.notifications.on(channel, (payload: unknown) => {
        for (const callback of callbacks) callback(payload === undefined ? '' : String(payload));
      });
      const ready = Promise.resolve(subscriber.listenTo(channel)).then(() => undefined);
      entry = { callbacks, ready };
      this.channels.set(channel, entry);
      ready.catch(() => {
        if (this.channels.get(channel) === entry) this.channels.delete(channel);
        subscriber.notifications.removeAllListeners(channel);
      });
    }
    await entry.ready; // a second listener on the channel also waits until LISTEN is in effect
    const callback = (payload: string): void => onPayload(payload);
    const { callbacks } = entry;
    callbacks.add(callback);
    let done = false;
    return async () => {
      if (done) return;
      done = true;
      callbacks.delete(callback);
      if (callbacks.size === 0 && this.channels.get(channel) === entry && !this.closing) {
        this.channels.delete(channel);
        subscriber.notifications.removeAllListeners(channel);
        try {
          await subscriber.unlisten(channel);
        } catch (error) {
          // The listener connection is down (pg-listen is reconnecting): nothing is delivered to a
          // channel without callbacks, so unsubscribing must not fail a shutdown over it.
          this.onError(error as Error);
        }
      }
    };
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    this.channels.clear();
    if (subscriber) {
      try {
        await (await subscriber).close();
      } catch {
        // never connected, or already gone: nothing left to close
      }
    }
    await this.pool.end();
  }

  /** One LISTEN connection per Db, opened on first use; it reconnects (and re-LISTENs) until close(). */
  private sharedSubscriber(): Promise<Subscriber> {
    if (!this.subscriber) {
      const subscriber = createSubscriber(
        { connectionString: this.options.connectionString, application_name: 'palimpsest-listen' },
        {
          parse: (payload: string) => payload,
          serialize: (payload: unknown) => String(payload),
          retryTimeout: 0, // keep retrying until close()
          retryInterval: (attempt: number) => (this.closing ? 0 : Math.min(250 * 2 ** attempt, 2_000)),
        },
      );
      subscriber.events.on('error', (error: Error) => {
        if (!this.closing) this.onError(error);
      });
      // pg-listen's reconnect loop does not look at close(): stop it from inside (a throwing "reconnect"
      // listener ends the loop) and end a connection that completed after close, or the process stays up.
      subscriber.events.on('reconnect', () => {
        if (this.closing) throw new Error('the database was closed: no more reconnecting');
      });
      subscriber.events.on('connected', () => {
        if (this.closing) void subscriber.close().catch(() => undefined);
      });
      const connecting = subscriber.connect().then(
        () => subscriber,
        async (error: unknown) => {
          this.subscriber = undefined;
          await subscriber.close().catch(() => undefined);
          throw error;
        },
      );
      this.subscriber = connecting;
    }
    return this.subscriber;
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('the database was closed');
  }
}
