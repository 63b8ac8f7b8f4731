import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Db, Sql, Tx } from './db';
import { MigrationChecksumError } from './errors';

/**
 * Forward-only migrations: `migrations/NNNN_name.sql`, applied in order, each in its own
 * transaction together with its row in schema_migrations. Concurrent migrators (several processes
 * starting at once) serialize on one transaction-scoped advisory lock and re-check inside it.
 */

export interface MigrationFile {
  /** `0001_events` */
  name: string;
  /** `0001` */
  version: string;
  sql: string;
  checksum: string;
}

export interface MigrateOptions {
  /** Folder holding the NNNN_name.sql files; default: the repository's `migrations/`. */
  dir?: string;
  /** Called with a migration's name just before it is applied (not for ones already applied). */
  onProgress?: (name: string) => void;
}

const FILE = /^(\d{4,})_([a-z0-9_]+)\.sql$/;
const LOCK = `SELECT pg_advisory_xact_lock(hashtextextended('palimpsest:migrate', 0))`;
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version text PRIMARY KEY,
  name text NOT NULL,
  checksum text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/**
 * Steps a migration needs that SQL cannot do, run right after it in its transaction. Loaded only when
 * their migration runs: openDb's own modules resolve relative paths only (a child process opening a
 * store from source has no path aliases), and the chain's hashing is libs/core's.
 */
const AFTER: Record<string, (tx: Tx) => Promise<unknown>> = {
  '0025_event_chain': async (tx) => (await import('./chain-backfill')).chainExistingEvents(tx),
};

interface AppliedRow {
  version: string;
  name: string;
  checksum: string;
}

export async function migrate(db: Db, opts: MigrateOptions = {}): Promise<{ applied: string[] }> {
  const files = readMigrations(opts.dir ?? defaultMigrationsDir());
  await db.transaction(async (tx) => {
    await tx.query(LOCK);
    await tx.query(CREATE_TABLE);
  });
  verify(files, await appliedRows(db));

  const applied: string[] = [];
  for (const file of files) {
    const didApply = await db.transaction(async (tx) => {
      await tx.query(LOCK);
      const { rows } = await tx.query<AppliedRow>(
        'SELECT version, name, checksum FROM schema_migrations WHERE version = $1',
        [file.version],
      );
      if (rows.length > 0) {
        verify([file], rows); // another migrator applied it meanwhile
        return false;
      }
      opts.onProgress?.(file.name);
      try {
        await tx.exec(file.sql);
        await AFTER[file.name]?.(tx);
      } catch (error) {
        throw new Error(`migration ${file.name} failed: ${(error as Error).message}`, { cause: error });
      }
      await tx.query('INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES ($1, $2, $3, now())', [
        file.version,
        file.name,
        file.checksum,
      ]);
      return true;
    });
    if (didApply) applied.push(file.name);
  }
  return { applied };
}

/**
 * Names of the migrations not yet applied, for health checks. Throws MigrationChecksumError when an
 * applied migration's file changed, and an Error when the database has migrations this build lacks.
 */
export async function pendingMigrations(db: Sql, opts: { dir?: string } = {}): Promise<string[]> {
  const files = readMigrations(opts.dir ?? defaultMigrationsDir());
  const { rows } = await db.query<{ present: boolean }>(
    `SELECT to_regclass('schema_migrations') IS NOT NULL AS present`,
  );
  const applied = rows[0]?.present ? await appliedRows(db) : [];
  verify(files, applied);
  const done = new Set(applied.map((row) => row.version));
  return files.filter((file) => !done.has(file.version)).map((file) => file.name);
}

async function appliedRows(sql: Sql): Promise<AppliedRow[]> {
  const { rows } = await sql.query<AppliedRow>('SELECT version, name, checksum FROM schema_migrations ORDER BY version');
  return rows;
}

function verify(files: MigrationFile[], applied: AppliedRow[]): void {
  const byVersion = new Map(files.map((file) => [file.version, file]));
  const unknown: string[] = [];
  for (const row of applied) {
    const file = byVersion.get(row.version);
    if (!file) unknown.push(row.name);
    else if (file.checksum !== row.checksum) throw new MigrationChecksumError(file.name, row.checksum, file.checksum);
  }
  if (unknown.length > 0) {
    throw new Error(
      `the database has migrations that are not in the migrations folder (${unknown.join(', ')}): ` +
        'it was migrated by a newer build, or a migration file was deleted',
    );
  }
}

export function readMigrations(dir: string): MigrationFile[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`migrations folder not found: ${dir}`);
  const files: MigrationFile[] = [];
  for (const entry of readdirSync(dir).sort()) {
    if (!entry.endsWith('.sql')) continue;
    const match = FILE.exec(entry);
    if (!match) throw new Error(`migration file ${entry} in ${dir} is not named NNNN_lower_snake_name.sql`);
    const sql = readFileSync(join(dir, entry), 'utf8');
    files.push({ name: entry.slice(0, -'.sql'.length), version: match[1]!, sql, checksum: checksum(sql) });
  }
  for (let i = 1; i < files.length; i++) {
    if (files[i]!.version === files[i - 1]!.version) {
      throw new Error(`two migrations share version ${files[i]!.version}: ${files[i - 1]!.name}, ${files[i]!.name}`);
    }
  }
  return files;
}

/** sha256 of the file with line endings normalized, so a CRLF checkout does not look like an edit. */
export function checksum(sql: string): string {
  return createHash('sha256').update(sql.replace(/\r\n/g, '\n'), 'utf8').digest('hex');
}

/**
 * The repository's `migrations/` folder: the nearest ancestor of this file holding both
 * `migrations/` and `package.json`. Works from libs/store/src (Jest, ts) and dist/libs/store/src (tsc).
 */
export function defaultMigrationsDir(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'migrations'))) return join(dir, 'migrations');
    if (dirname(dir) === dir) throw new Error(`no migrations/ folder next to a package.json above ${from}`);
  }
}
