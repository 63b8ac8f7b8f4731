import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { assertChannelName, type Db, type DbSession, type ListenGap, type QueryResult, type Tx } from '../db';
import { INT8_OID, parseInt8 } from '../int8';
import { TransactionGuard, transactionHandle } from '../transaction-guard';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock';
import { finishFirstStart, startFirstStart, type FirstStart } from './first-start';
import { loadPglite, localError, toHostRealm, toLocalRealm } from './pglite-module';
import { sharedBuffersProblem } from './shared-buffers';
import { compiledAt, type WasmTier } from './wasm-tier';

export type PgliteDbOptions = ({ dataDir: string } | { memory: true; /** A dump (dumpPgliteDataDir) to start from instead of initdb. */ loadDataDir?: Blob }) & {
  /** Told what a first start is doing, one line at a time (creating, restoring, migrating, ready). */
  onProgress?: (line: string) => void;
  /** false: a fresh data directory is made by initdb even when a prepared image exists. Default true. */
  useImage?: boolean;
  /** PostgreSQL's shared_buffers; default {@link DEFAULT_SHARED_BUFFERS}. */
  sharedBuffers?: string;
  /** PALIMPSEST_PGLITE_IMAGE: `off`, or the image directory to use instead of the built one (pglite-image.ts). */
  image?: string;
  /** The transaction guard (transaction-guard.ts); default on. */
  transactionGuard?: boolean;
  /** Which WebAssembly tier compiles PostgreSQL (wasm-tier.ts); default `baseline`. */
  wasmTier?: WasmTier;
};

/**
 * PGlite touches all of shared_buffers when it starts, so its size is resident memory from the first
 * second: at PostgreSQL's 128MB a bare PGlite peaks at ~290 MB, at 32MB ~200 MB (docs/benchmarks.md).
 * Pages that do not fit are read from the files, which the OS page cache still holds.
 */
export const DEFAULT_SHARED_BUFFERS = '32MB';

/**
 * In-process PostgreSQL. One connection: transactions run one at a time (PGlite queues them),
 * and a data directory is held with a lock file for as long as the Db is open.
 * A data directory without a database is created migrated: copied from the prepared image when the
 * build made one for these migrations (first-start.ts), else by initdb and every migration.
 * The process should call close() before exiting; the lock is also dropped on a plain exit.
 */
export async function openPgliteDb(options: PgliteDbOptions): Promise<Db> {
  const dataDir = 'dataDir' in options ? resolve(options.dataDir) : undefined;
  const sharedBuffers = options.sharedBuffers ?? DEFAULT_SHARED_BUFFERS;
  const problem = sharedBuffersProblem(sharedBuffers);
  if (problem) throw new Error(`shared_buffers ${problem}`);
  let lock: DataDirLock | undefined;
  if (dataDir !== undefined) {
    mkdirSync(dirname(dataDir), { recursive: true });
    lock = acquireDataDirLock(dataDir);
  }
  const releaseOnExit = (): void => lock?.release();
  if (lock) process.once('exit', releaseOnExit);
  let db: PgliteDb | undefined;
  try {
    const fresh = dataDir !== undefined && !existsSync(join(dataDir, 'PG_VERSION'));
    const first: FirstStart | undefined = fresh ? startFirstStart(dataDir, options.onProgress, options.useImage ?? true, options.image) : undefined;
    // int8[] uses the element parser, so overriding OID 20 covers arrays too.
    const { PGlite, crossRealm } = loadPglite();
    const pg = await compiledAt(options.wasmTier ?? 'baseline', () =>
      PGlite.create(dataDir ?? 'memory://', {
        ...('loadDataDir' in options && options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
        parsers: { [INT8_OID]: parseInt8 },
        startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`],
      }),
    );
    // PGlite issues a bare BEGIN; make its isolation level explicit for this (only) session.
    await pg.exec(`SET default_transaction_isolation = 'read committed'`);
    db = new PgliteDb(pg, crossRealm ? hostRealmBridge : sameRealm, options.transactionGuard ?? true, () => {
      process.off('exit', releaseOnExit);
      lock?.release();
    });
    if (first) await finishFirstStart(db, first);
    return db;
  } catch (error) {
    if (db) await db.close().catch(() => undefined);
    process.off('exit', releaseOnExit);
    lock?.release();
    throw localError(error);
  }
}

/** The database as a tarball (after a CHECKPOINT), which `loadDataDir` starts another one from. */
export async function dumpPgliteDataDir(db: Db): Promise<Uint8Array> {
  if (!(db instanceof PgliteDb)) throw new Error('dumpPgliteDataDir(): a PGlite store only');
  return db.dump();
}

/** How values cross between this code and PGlite: identity normally, copies under Jest (pglite-module.ts). */
interface Bridge {
  params(params: unknown[] | undefined): any[] | undefined;
  result<R>(result: { rows: unknown[]; rowCount?: number; affectedRows?: number }): QueryResult<R>;
  call<T>(fn: () => Promise<T>): Promise<T>;
}

const sameRealm: Bridge = {
  params: (params) => params as any[] | undefined,
  result: <R>(result: { rows: unknown[]; rowCount?: number; affectedRows?: number }) => ({
    rows: result.rows as R[],
    rowCount: result.rowCount ?? result.affectedRows ?? result.rows.length,
  }),
  call: (fn) => fn(),
};

const hostRealmBridge: Bridge = {
  params: (params) => params?.map(toHostRealm),
  result: <R>(result: { rows: unknown[]; rowCount?: number; affectedRows?: number }) => ({
    rows: Array.from(result.rows, toLocalRealm) as R[], // a local array: the host array's map() would make a host one
    rowCount: result.rowCount ?? result.affectedRows ?? result.rows.length,
  }),
  call: async (fn) => {
    try {
      return await fn();
    } catch (error) {
      throw localError(error);
    }
  },
};

class PgliteDb implements Db {
  readonly kind = 'pglite' as const;
  private readonly guard: TransactionGuard;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly pg: PGlite,
    private readonly bridge: Bridge,
    guarded: boolean,
    private readonly releaseLock: () => void,
  ) {
    this.guard = new TransactionGuard(guarded);
  }

  async query<R = any>(text: string, params?: unknown[]): Promise<QueryResult<R>> {
    this.guard.assertOutside('query');
    this.assertOpen();
    const { bridge } = this;
    return bridge.result<R>(await bridge.call(() => this.pg.query<R>(text, bridge.params(params))));
  }

  async exec(sqlScript: string): Promise<void> {
    this.guard.assertOutside('exec');
    this.assertOpen();
    await this.bridge.call(() => this.pg.exec(sqlScript));
  }

  async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    this.guard.assertOutside('transaction');
    this.assertOpen();
    // PGlite's own transaction(): BEGIN, COMMIT when the callback resolves, ROLLBACK when it throws.
    const { bridge } = this;
    return bridge.call(() => this.pg.transaction(async (inner) => {
      const { tx, end } = transactionHandle(
        async (text, params) => bridge.result(await bridge.call(() => inner.query(text, bridge.params(params)))),
        async (sqlScript) => {
          await bridge.call(() => inner.exec(sqlScript));
        },
      );
      try {
        return await this.guard.run(() => fn(tx));
      } finally {
        end();
      }
    }));
  }

  /** In process, delivery never breaks: `onGap` is never called. */
  async listen(channel: string, onPayload: (payload: string) => void, _onGap?: (gap: ListenGap) => void): Promise<() => Promise<void>> {
    assertChannelName(channel);
    this.guard.assertOutside('listen');
    this.assertOpen();
    const unlisten = await this.bridge.call(() => this.pg.listen(channel, onPayload));
    let done = false;
    return async () => {
      if (done || this.closing) return;
      done = true;
      await unlisten();
    };
  }

  /** PGlite has one connection: a session is that connection, and its state is shared with every statement. */
  async session(): Promise<DbSession> {
    this.guard.assertOutside('session');
    this.assertOpen();
    let released = false;
    return {
      query: <R = any>(text: string, params?: unknown[]): Promise<QueryResult<R>> => {
        if (released) return Promise.reject(new Error('the session was released'));
        return this.query<R>(text, params);
      },
      release: async () => {
        released = true;
      },
    };
  }

  async dump(): Promise<Uint8Array> {
    await this.pg.exec('CHECKPOINT');
    const file = await this.pg.dumpDataDir('none');
    return new Uint8Array(await file.arrayBuffer());
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        await this.pg.close();
      } finally {
        this.releaseLock();
      }
    })();
    return this.closing;
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('the database was closed');
  }
}
