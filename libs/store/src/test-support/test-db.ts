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
  const testDb = url ? await createPostgresTestDb(url) : await createPgliteTestDb(opts.migrate ?? true);
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

let dumpFile: string | undefined;
/** Named once per process: the migrations are read and hashed for the first database only. */
function migratedDumpFile(): string {
  if (dumpFile) return dumpFile;
  const key = createHash('sha256').update(JSON.stringify(manifestFor(readMigrations(defaultMigrationsDir())))).digest('hex').slice(0, 16);
  return (dumpFile = join(tmpdir(), `palimpsest-test-db-${key}.tar`));
}

async function createPostgresTestDb(adminUrl: string): Promise<TestDb> {
  const name = `palimpsest_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let db: Db;
  try {
    db = await openPostgresDb({ connectionString: url.toString() });
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
  const url = new URL(adminUrl);
  url.pathname = `/${rows[0]!.name}`;
  return url.toString();
}

/** Runs `sql` on the server as the admin (pg_terminate_backend of other sessions, settings). */
export function asAdmin<R = unknown>(sql: string, params: unknown[] = []): Promise<R[]> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('asAdmin(): PostgreSQL only');
  return withAdmin(adminUrl, async (admin) => (await admin.query(sql, params)).rows as R[]);
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
