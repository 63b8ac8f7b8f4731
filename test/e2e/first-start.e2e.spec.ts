import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultMigrationsDir, pendingMigrations, readMigrations } from '@palimpsest/store/migrate';
import { openDb } from '@palimpsest/store/open-db';
import { chooseImage, defaultImageDir, IMAGE_ENV } from '@palimpsest/store/pglite/pglite-image';
import { startApi } from '../support/http-server';

const MIGRATIONS = readMigrations(defaultMigrationsDir());
const COUNT = MIGRATIONS.length;

/** The gateway on an embedded data directory (whatever DATABASE_URL the suite runs with), until its first healthy /health. */
async function firstHealthy(dataDir: string, extra: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const api = await startApi({ DATABASE_URL: '', PALIMPSEST_DATA_DIR: dataDir, ...extra }, ['--no-local-token']);
  const health = await fetch(`${api.url}/health`);
  expect(health.status).toBe(200);
  expect(await health.json()).toMatchObject({ status: 'ok', details: { database: { backend: 'pglite' }, migrations: { pending: 0 } } });
  const { code, stderr } = await api.stop();
  expect(code).toBe(0);
  return stderr.split('\n');
}

/** The lines matching `patterns`, which must appear in this order, each once, before "listening on". */
function expectInOrder(lines: string[], patterns: RegExp[]): void {
  const at = patterns.map((pattern) => {
    const found = lines.filter((line) => pattern.test(line));
    expect({ pattern: String(pattern), found: found.length }).toEqual({ pattern: String(pattern), found: 1 });
    return lines.findIndex((line) => pattern.test(line));
  });
  at.push(lines.findIndex((line) => /listening on http/.test(line)));
  expect([...at].sort((a, b) => a - b)).toEqual(at);
}

async function expectAllMigrationsApplied(dataDir: string): Promise<void> {
  const db = await openDb({ dataDir });
  try {
    expect(await pendingMigrations(db)).toEqual([]);
    const { rows } = await db.query<{ name: string; checksum: string }>('SELECT name, checksum FROM schema_migrations ORDER BY version');
    expect(rows).toEqual(MIGRATIONS.map(({ name, checksum }) => ({ name, checksum })));
  } finally {
    await db.close();
  }
}

describe('palimpsest api: the first start of an embedded data directory (PGlite)', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'palimpsest-first-start-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('the build made a prepared image holding every migration of this checkout', () => {
    const choice = chooseImage(defaultImageDir(defaultMigrationsDir()), MIGRATIONS, undefined);
    expect(choice).toMatchObject({ use: true, manifest: { migrations: MIGRATIONS.map(({ version, name, checksum }) => ({ version, name, checksum })) } });
  });

  it('prints what it does, restores the prepared image, and comes up healthy with every migration applied; a second start is quiet', async () => {
    const dataDir = join(tmp, 'data');
    const lines = await firstHealthy(dataDir);
    expectInOrder(lines, [
      new RegExp(`^palimpsest: creating the embedded database in ${dataDir}$`),
      new RegExp(`^palimpsest: restored the prepared image \\(${COUNT} migrations\\) in \\d+ ms$`),
      new RegExp(`^palimpsest: applied 0 migrations in \\d+ ms \\(${COUNT} came with the image\\)$`),
      /^palimpsest: embedded database ready in \d+ ms$/,
    ]);
    await expectAllMigrationsApplied(dataDir);

    const again = await firstHealthy(dataDir);
    expect(again.filter((line) => line.startsWith('palimpsest: '))).toEqual([]);
  }, 120_000);

  it(`without the image (${IMAGE_ENV}=off) runs initdb and every migration, saying so`, async () => {
    const dataDir = join(tmp, 'slow', 'data');
    const lines = await firstHealthy(dataDir, { [IMAGE_ENV]: 'off' });
    expectInOrder(lines, [
      new RegExp(`^palimpsest: creating the embedded database in ${dataDir}$`),
      new RegExp(`^palimpsest: ${IMAGE_ENV}=off: running initdb, which takes several seconds$`),
      /^palimpsest: initdb done in \d+ ms$/,
      new RegExp(`^palimpsest: applied ${COUNT} migrations in \\d+ ms$`),
      /^palimpsest: embedded database ready in \d+ ms$/,
    ]);
    await expectAllMigrationsApplied(dataDir);
  }, 120_000);
});
