import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '@palimpsest/store/db';
import { MigrationChecksumError } from '@palimpsest/store/errors';
import { defaultMigrationsDir, migrate, pendingMigrations, readMigrations } from '@palimpsest/store/migrate';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';

describe(`migrate (${describeBackend})`, () => {
  describe('the repository migrations', () => {
    let testDb: TestDb;
    let db: Db;

    beforeAll(async () => {
      testDb = await createTestDb({ migrate: false });
      db = testDb.db;
    });
    afterAll(() => testDb.dispose());

    it('applies every file in order on an empty database, then nothing on a re-run', async () => {
      const all = readMigrations(defaultMigrationsDir()).map((m) => m.name);
      expect(all[0]).toBe('0001_events');
      expect(await pendingMigrations(db)).toEqual(all);

      const progress: string[] = [];
      expect(await migrate(db, { onProgress: (name) => progress.push(name) })).toEqual({ applied: all });
      expect(progress).toEqual(all);
      expect(await pendingMigrations(db)).toEqual([]);

      expect(await migrate(db)).toEqual({ applied: [] });
      const { rows } = await db.query('SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => r.name)).toEqual(all);
      expect(rows[0]).toMatchObject({ version: '0001', checksum: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(rows[0].applied_at).toBeInstanceOf(Date);
    });

    it('finds migrations/ from the compiled location too (dist/libs/store/src)', () => {
      const root = mkdtempSync(join(tmpdir(), 'palimpsest-root-'));
      try {
        writeFileSync(join(root, 'package.json'), '{}');
        mkdirSync(join(root, 'migrations'));
        mkdirSync(join(root, 'dist', 'libs', 'store', 'src'), { recursive: true });
        expect(defaultMigrationsDir(join(root, 'dist', 'libs', 'store', 'src'))).toBe(join(root, 'migrations'));
        expect(defaultMigrationsDir(join(root, 'libs', 'store', 'src'))).toBe(join(root, 'migrations'));
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  });

  describe('a migrations folder that changes over time', () => {
    let testDb: TestDb;
    let db: Db;
    let dir: string;
    const write = (name: string, sql: string) => writeFileSync(join(dir, name), sql);

    beforeAll(async () => {
      testDb = await createTestDb({ migrate: false });
      db = testDb.db;
      dir = mkdtempSync(join(tmpdir(), 'palimpsest-migrations-'));
    });
    afterAll(async () => {
      rmSync(dir, { recursive: true, force: true });
      await testDb.dispose();
    });

    it('applies new files only, each recorded once', async () => {
      write('0001_first.sql', 'CREATE TABLE first_table (id int PRIMARY KEY);\nINSERT INTO first_table VALUES (1);\n');
      write('README.md', 'not a migration');
      expect(await migrate(db, { dir })).toEqual({ applied: ['0001_first'] });
      write('0002_second.sql', 'CREATE TABLE second_table (id int);');
      expect(await pendingMigrations(db, { dir })).toEqual(['0002_second']);
      expect(await migrate(db, { dir })).toEqual({ applied: ['0002_second'] });
      expect(await migrate(db, { dir })).toEqual({ applied: [] });
      expect((await db.query('SELECT count(*) AS n FROM first_table')).rows[0].n).toBe(1);
    });

    it('serializes concurrent migrators: each migration is applied by exactly one of them', async () => {
      write('0003_third.sql', 'CREATE TABLE third_table (id int);');
      write('0004_fourth.sql', 'CREATE TABLE fourth_table (id int);');
      const results = await Promise.all([migrate(db, { dir }), migrate(db, { dir }), migrate(db, { dir })]);
      expect(results.flatMap((r) => r.applied).sort()).toEqual(['0003_third', '0004_fourth']);
    });

    it('refuses to run when an applied migration was edited, and so does pendingMigrations', async () => {
      write('0001_first.sql', 'CREATE TABLE first_table (id bigint PRIMARY KEY);\n');
      write('0005_fifth.sql', 'CREATE TABLE fifth_table (id int);');
      await expect(migrate(db, { dir })).rejects.toBeInstanceOf(MigrationChecksumError);
      await expect(migrate(db, { dir })).rejects.toThrow(/0001_first was changed after it was applied/);
      await expect(pendingMigrations(db, { dir })).rejects.toBeInstanceOf(MigrationChecksumError);
      expect((await db.query(`SELECT to_regclass('fifth_table') IS NULL AS absent`)).rows[0].absent).toBe(true);
    });

    it('treats CRLF line endings as the same file', async () => {
      write('0001_first.sql', 'CREATE TABLE first_table (id int PRIMARY KEY);\r\nINSERT INTO first_table VALUES (1);\r\n');
      expect(await migrate(db, { dir })).toEqual({ applied: ['0005_fifth'] });
    });

    it('rolls a failing migration back entirely and leaves it pending', async () => {
      write('0006_broken.sql', 'CREATE TABLE sixth_table (id int);\nSELECT * FROM no_such_table;');
      await expect(migrate(db, { dir })).rejects.toThrow(/migration 0006_broken failed: .*no_such_table/);
      expect((await db.query(`SELECT to_regclass('sixth_table') IS NULL AS absent`)).rows[0].absent).toBe(true);
      expect(await pendingMigrations(db, { dir })).toEqual(['0006_broken']);
      rmSync(join(dir, '0006_broken.sql'));
    });

    it('refuses a database that has migrations the folder does not', async () => {
      rmSync(join(dir, '0005_fifth.sql'));
      await expect(migrate(db, { dir })).rejects.toThrow(/not in the migrations folder \(0005_fifth\)/);
    });

    it('refuses badly named or duplicate migration files', async () => {
      const other = mkdtempSync(join(tmpdir(), 'palimpsest-bad-'));
      try {
        writeFileSync(join(other, '1_Bad Name.sql'), 'SELECT 1');
        expect(() => readMigrations(other)).toThrow(/not named NNNN_lower_snake_name.sql/);
        rmSync(join(other, '1_Bad Name.sql'));
        writeFileSync(join(other, '0001_a.sql'), 'SELECT 1');
        writeFileSync(join(other, '0001_b.sql'), 'SELECT 1');
        expect(() => readMigrations(other)).toThrow(/two migrations share version 0001/);
      } finally {
        rmSync(other, { recursive: true, force: true });
      }
      expect(() => readMigrations(join(other, 'gone'))).toThrow(/migrations folder not found/);
    });
  });
});
