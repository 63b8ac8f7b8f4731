import { cpSync, mkdtempSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sql } from '../db';
import { defaultMigrationsDir, migrate, pendingMigrations, readMigrations } from '../migrate';
import { openPgliteDb } from './pglite-db';
import { manifestFor } from './pglite-image';
import { prepareImage } from './prepare-image';

/** The schema as text, one line per column, index, constraint, function, trigger and sequence of `public`. */
async function schemaOf(db: Sql): Promise<string[]> {
  const { rows } = await db.query<{ line: string }>(`
    SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS line
      FROM information_schema.columns WHERE table_schema = 'public'
    UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
    UNION ALL SELECT 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
      FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL SELECT 'function ' || pg_get_functiondef(oid) FROM pg_proc WHERE pronamespace = 'public'::regnamespace AND prokind IN ('f', 'p')
    UNION ALL SELECT 'trigger ' || pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL SELECT 'sequence ' || sequence_name || ' ' || data_type FROM information_schema.sequences WHERE sequence_schema = 'public'
    ORDER BY 1`);
  return rows.map((row) => row.line);
}

const migrationsOf = async (db: Sql) =>
  (await db.query<{ version: string; name: string; checksum: string }>('SELECT version, name, checksum FROM schema_migrations ORDER BY version')).rows;

/** Always PGlite: the image is the embedded store's, whichever backend the rest of the suite runs on. */
describe('the prepared PGlite image (prepare-image.ts)', () => {
  let tmp: string;
  let imageDir: string;
  let made: Awaited<ReturnType<typeof prepareImage>>;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'palimpsest-prepare-'));
    imageDir = join(tmp, 'image');
    made = await prepareImage(imageDir);
  }, 120_000);
  afterAll(() => {
    rmSync(tmp, { recursive: true, force: true });
  });

  it('is made from the migrations folder, and left alone while the migrations and PGlite are unchanged', async () => {
    const emptyDirectories = expect.arrayContaining(['pg_notify', 'pg_tblspc', 'pg_wal/archive_status']);
    expect(made).toEqual({ made: true, manifest: { ...manifestFor(readMigrations(defaultMigrationsDir())), empty_directories: emptyDirectories } });
    expect(await prepareImage(imageDir)).toEqual({ made: false, manifest: made.manifest });
  });

  it('restored, equals a freshly migrated database: the same migrations with their checksums, the same schema', async () => {
    const count = made.manifest.migrations.length;
    const lines: string[] = [];
    const dataDir = join(tmp, 'restored');
    const restored = await openPgliteDb({ dataDir, image: imageDir, onProgress: (line) => lines.push(line) });
    const fresh = await openPgliteDb({ memory: true });
    try {
      await migrate(fresh);
      expect(lines).toEqual([
        `creating the embedded database in ${dataDir}`,
        expect.stringMatching(new RegExp(`^restored the prepared image \\(${count} migrations\\) in \\d+ ms$`)),
        expect.stringMatching(new RegExp(`^applied 0 migrations in \\d+ ms \\(${count} came with the image\\)$`)),
        expect.stringMatching(/^embedded database ready in \d+ ms$/),
      ]);
      expect(await pendingMigrations(restored)).toEqual([]);
      expect(await migrationsOf(restored)).toEqual(await migrationsOf(fresh));
      expect(await migrationsOf(restored)).toEqual(made.manifest.migrations);
      const schema = await schemaOf(restored);
      expect(schema.filter((line) => line.startsWith('column schema_migrations.')).length).toBe(4);
      expect(schema).toEqual(await schemaOf(fresh));
      // A restored database takes writes and keeps them across a reopen, without being restored again.
      await restored.query(`INSERT INTO schema_migrations (version, name, checksum) VALUES ('9999', 'probe', 'x')`);
    } finally {
      await restored.close();
      await fresh.close();
    }
    lines.length = 0;
    const reopened = await openPgliteDb({ dataDir, image: imageDir, onProgress: (line) => lines.push(line) });
    try {
      expect(lines).toEqual([]);
      expect((await reopened.query(`SELECT name FROM schema_migrations WHERE version = '9999'`)).rows).toEqual([{ name: 'probe' }]);
    } finally {
      await reopened.close();
    }
  }, 120_000);

  it('restores from a copy that lost its empty directories (as a packed package does), and opens', async () => {
    const packed = join(tmp, 'packed');
    cpSync(imageDir, packed, { recursive: true });
    for (const dir of [...made.manifest.empty_directories!].reverse()) rmdirSync(join(packed, 'data', dir));
    const db = await openPgliteDb({ dataDir: join(tmp, 'from-packed'), image: packed, onProgress: () => undefined });
    try {
      expect(await migrationsOf(db)).toEqual(made.manifest.migrations);
    } finally {
      await db.close();
    }
  }, 120_000);
});
