import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Db, DbKind } from '../db';
import { defaultMigrationsDir, migrate, readMigrations } from '../migrate';
import { dumpPgliteDataDir, openPgliteDb } from '../pglite/pglite-db';
import { manifestFor } from '../pglite/pglite-image';
import { openPostgresDb } from '../postgres/pg-db';

/**
 * A private, migrated database per test file, on whichever backend the environment selects:
 * PostgreSQL when DATABASE_URL is set (a fresh database, dropped on dispose), else PGlite in memory.
 */

export const describeBackend: DbKind = process.env.DATABASE_URL ? 'postgres' : 'pglite';

export interface TestDb {
  db: Db;
  dispose(): Promise<void>;
}

export async function createTestDb(opts: { migrate?: boolean } = {}): Promise<TestDb> {
  const url = process.env.DATABASE_URL;
  const testDb = url ? await createPostgresTestDb(url, opts.migrate ?? true) : await createPgliteTestDb(opts.migrate ?? true);
  if (opts.migrate ?? true) {
    try {
      await migrate(testDb.db);
    } catch (error) {
      await testDb.dispose();
      throw error;
    }
  }
  return testDb;
}

/**
 * initdb and the migrations take PGlite seconds per database, so the first migrated one is dumped to
 * a file named by the PGlite version and the migrations' checksums, and later ones (in any worker)
 * start from it; migrate() still runs on each and finds nothing to do.
 */
async function createPgliteTestDb(migrated: boolean): Promise<TestDb> {
  const file = migrated ? migratedDumpFile() : undefined;
  const dump = file && existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
  const db = await openPgliteDb({ memory: true, loadDataDir: dump });
  if (file && !dump) {
    await migrate(db);
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(temp, await dumpPgliteDataDir(db));
    renameSync(temp, file);
  }
  return { db, dispose: () => db.close() };
}

let key: string | undefined;
/** Computed once per process: the migrations are read and hashed for the first database only. */
function migrationsKey(): string {
  return (key ??= createHash('sha256').update(JSON.stringify(manifestFor(readMigrations(defaultMigrationsDir())))).digest('hex').slice(0, 16));
}

function migratedDumpFile(): string {
  return join(tmpdir(), `palimpsest-test-db-${migrationsKey()}.tar`);
}

/**
 * The same on PostgreSQL: the first migrated database is kept as a template named by the migrations'
 * checksums, and later ones (in any worker, any run) are copies of it (CREATE DATABASE … TEMPLATE, a
 * file copy instead of every migration's statements); migrate() still runs on each and finds nothing to
 * do. A database created unmigrated is still created empty.
 */
async function createPostgresTestDb(adminUrl: string, migrated: boolean): Promise<TestDb> {
  const name = `palimpsest_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const template = migrated ? await migratedTemplate(adminUrl) : undefined;
  await withAdmin(adminUrl, (admin) => admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`));
  let db: Db;
  try {
    db = await openPostgresDb({ connectionString: databaseUrl(adminUrl, name) });
  } catch (error) {
    await dropDatabase(adminUrl, name);
    throw error;
  }
  let disposed = false;
  return {
    db,
    async dispose() {
      if (disposed) return;
      disposed = true;
      try {
        await db.close();
      } finally {
        await dropDatabase(adminUrl, name);
      }
    },
  };
}

/** The URL of a PostgreSQL test database, so that other pools (another "process", a proxy) reach the same one. */
export async function databaseUrlOf(db: Db): Promise<string> {
  const adminUrl = process.env.DATABASE_URL;
  if (db.kind !== 'postgres' || !adminUrl) throw new Error('databaseUrlOf(): a PostgreSQL test database only');
  const { rows } = await db.query<{ name: string }>('SELECT current_database() AS name');
  return databaseUrl(adminUrl, rows[0]!.name);
}

/** Runs `sql` on the server as the admin (pg_terminate_backend of other sessions, settings). */
export function asAdmin<R = unknown>(sql: string, params: unknown[] = []): Promise<R[]> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('asAdmin(): PostgreSQL only');
  return withAdmin(adminUrl, async (admin) => (await admin.query(sql, params)).rows as R[]);
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

let template: Promise<string> | undefined;
function migratedTemplate(adminUrl: string): Promise<string> {
  template ??= makeMigratedTemplate(adminUrl).catch((error: unknown) => {
    template = undefined;
    throw error;
  });
  return template;
}

/** Any worker may be first: an advisory lock lets one build it (under another name, renamed when migrated) while the others wait. */
async function makeMigratedTemplate(adminUrl: string): Promise<string> {
  const name = `palimpsest_template_${migrationsKey()}`;
  await withAdmin(adminUrl, async (admin) => {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      if ((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount) return;
      const building = `${name}_${randomBytes(4).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${building}`);
      try {
        const db = await openPostgresDb({ connectionString: databaseUrl(adminUrl, building) });
        try {
          await migrate(db);
        } finally {
          await db.close();
        }
        await waitForNoSessions(admin, building);
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      } catch (error) {
        await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        throw error;
      }
    } finally {
      await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
    }
  });
  return name;
}

/** A closed pool's server sessions end a moment after it closes; a database with sessions cannot be renamed or copied. */
async function waitForNoSessions(admin: pg.Client, name: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name])).rows[0]!.n > 0) {
    if (Date.now() > deadline) throw new Error(`sessions still on ${name} 10 s after its pool closed`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function dropDatabase(adminUrl: string, name: string): Promise<unknown> {
  return withAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

async function withAdmin<T>(adminUrl: string, fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl, application_name: 'palimpsest-test-admin' });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

/**
 * One migrated test database for the enclosing describe block: created in beforeAll, disposed in
 * afterAll. Read `.db` from tests and hooks (it does not exist before beforeAll has run).
 */
export function useTestDb(): { readonly db: Db; readonly testDb: TestDb } {
  let current: TestDb | undefined;
  beforeAll(async () => {
    current = await createTestDb();
  });
  afterAll(async () => {
    await current?.dispose();
  });
  const testDb = (): TestDb => {
    if (!current) throw new Error('useTestDb(): the database is created in beforeAll');
    return current;
  };
  return {
    get testDb() {
      return testDb();
    },
    get db() {
      return testDb().db;
    },
  };
}
