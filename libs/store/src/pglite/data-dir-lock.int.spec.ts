import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '@palimpsest/store/db';
import { DataDirInUseError } from '@palimpsest/store/errors';
import { openDb } from '@palimpsest/store/open-db';
import { readStoreConfig } from '@palimpsest/store/store-config';
import { acquireDataDirLock, lockPathFor } from '@palimpsest/store/pglite/data-dir-lock';
import { spawnTs } from '@palimpsest/store/test-support/spawn-ts';

/**
 * PGlite-only by nature (PostgreSQL has its own postmaster.pid), so this runs on every backend.
 * Child processes are real second processes opening the same directory.
 */
const OPEN_DB = join(__dirname, '..', 'open-db.ts');

/** A child that opens `dataDir`, runs `body` (with `db` in scope), prints its result and exits. */
function childOpening(dataDir: string, body = 'return "opened"') {
  return spawnTs(`
    const { openDb } = require(${JSON.stringify(OPEN_DB)});
    openDb({ dataDir: ${JSON.stringify(dataDir)} }).then(
      async (db) => {
        const result = await (async () => { ${body} })();
        await db.close();
        console.log(JSON.stringify(result));
        process.exit(0);
      },
      (error) => { console.log(error.message); process.exit(3); },
    );
  `);
}

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid;
}

describe('PGlite data directory lock', () => {
  let root: string;
  let dataDir: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'palimpsest-lock-'));
    dataDir = join(root, 'nested', 'deeper', 'data');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('holds the directory while open: a second process and a second open here both fail clearly', async () => {
    // The default location comes from PALIMPSEST_DATA_DIR; missing parent directories are created.
    const db: Db = await openDb({}, readStoreConfig({ PALIMPSEST_DATA_DIR: dataDir }, process.cwd()));
    try {
      expect(db.kind).toBe('pglite');
      expect(readFileSync(lockPathFor(dataDir), 'utf8').trim()).toBe(String(process.pid));
      await db.exec('CREATE TABLE kept (v text); INSERT INTO kept VALUES (\'first process\');');

      const child = await childOpening(dataDir);
      expect(child.stdout).toContain(`data directory is in use by pid ${process.pid}`);
      expect(child.code).toBe(3);

      await expect(openDb({ dataDir })).rejects.toBeInstanceOf(DataDirInUseError);
    } finally {
      await db.close();
    }
    expect(existsSync(lockPathFor(dataDir))).toBe(false);

    // Released on close: another process can now open it and sees the data.
    const next = await childOpening(dataDir, 'return (await db.query("SELECT v FROM kept")).rows');
    expect(next.stderr).toBe('');
    expect(JSON.parse(next.stdout)).toEqual([{ v: 'first process' }]);
    expect(next.code).toBe(0);
  });

  it('takes over a stale lock whose pid is dead, and one with unreadable content', async () => {
    for (const content of [`${deadPid()}\n`, 'not a pid']) {
      writeFileSync(lockPathFor(dataDir), content);
      const db = await openDb({ dataDir });
      try {
        expect(readFileSync(lockPathFor(dataDir), 'utf8').trim()).toBe(String(process.pid));
        expect((await db.query('SELECT count(*) AS n FROM kept')).rows[0].n).toBe(1);
      } finally {
        await db.close();
      }
      expect(existsSync(lockPathFor(dataDir))).toBe(false);
    }
  });

  it('recovers the directory after its holder was killed without closing', async () => {
    let ready: (pid: number) => void;
    const holderReady = new Promise<number>((resolve) => (ready = resolve));
    const holder = spawnTs(
      `
      const { openDb } = require(${JSON.stringify(OPEN_DB)});
      openDb({ dataDir: ${JSON.stringify(dataDir)} }).then(async (db) => {
        await db.query("INSERT INTO kept VALUES ('killed process')");
        console.log('ready ' + process.pid);
        setInterval(() => undefined, 1000);
      });
    `,
      { onStdout: (chunk) => { const match = /ready (\d+)/.exec(chunk); if (match) ready(Number(match[1])); } },
    );
    const holderPid = await holderReady;
    expect(readFileSync(lockPathFor(dataDir), 'utf8').trim()).toBe(String(holderPid));
    process.kill(holderPid, 'SIGKILL');
    expect((await holder).signal).toBe('SIGKILL');
    expect(existsSync(lockPathFor(dataDir))).toBe(true); // left behind by the dead holder

    const db = await openDb({ dataDir });
    try {
      const { rows } = await db.query<{ v: string }>('SELECT v FROM kept ORDER BY v');
      // Committed before the kill, so it survives: PGlite writes through to the directory per query.
      expect(rows.map((r) => r.v)).toEqual(['first process', 'killed process']);
    } finally {
      await db.close();
    }
  });

  it('acquireDataDirLock refuses a live holder and reports its pid', () => {
    const other = join(root, 'other');
    const lock = acquireDataDirLock(other, process.ppid); // the parent process: alive, not us
    try {
      expect(() => acquireDataDirLock(other)).toThrow(`data directory is in use by pid ${process.ppid}`);
    } finally {
      lock.release();
    }
    expect(existsSync(lockPathFor(other))).toBe(false);
  });
});
