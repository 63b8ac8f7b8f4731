import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '@palimpsest/store/db';
import { migrate } from '@palimpsest/store/migrate';
import { openDb } from '@palimpsest/store/open-db';
import { openWorkspaceRoot, type WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { createBenchDatabase } from './bench-database';
import { benchStore } from './deployed-env';

export interface BenchWorkspace {
  db: Db;
  backend: 'PostgreSQL' | 'PGlite';
  /** The workspace directory, opened as the root. */
  dir: string;
  root: WorkspaceRoot;
}

/**
 * A benchmark's store and workspace for `fn`: a fresh PostgreSQL database when DATABASE_URL is set (else
 * PGlite in a temporary directory), migrated, and a new directory under `parent` opened as the root; all
 * closed and removed afterwards.
 */
export async function withBenchWorkspace<T>(prefix: string, fn: (w: BenchWorkspace) => Promise<T>, parent = tmpdir()): Promise<T> {
  const adminUrl = process.env.DATABASE_URL;
  const database = adminUrl ? await createBenchDatabase(adminUrl) : null;
  const dataRoot = mkdtempSync(join(tmpdir(), `${prefix}-db-`));
  const dir = mkdtempSync(join(parent, `${prefix}-`));
  const db = await openDb(database ? { databaseUrl: database.url } : { dataDir: join(dataRoot, 'data') }, benchStore());
  const root = openWorkspaceRoot(dir);
  try {
    await migrate(db);
    return await fn({ db, backend: database ? 'PostgreSQL' : 'PGlite', dir, root });
  } finally {
    root.close();
    await db.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(dataRoot, { recursive: true, force: true });
  }
}
