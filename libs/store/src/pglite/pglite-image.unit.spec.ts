import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checksum, type MigrationFile } from '../migrate';
import { chooseImage, IMAGE_ENV, manifestFor, pgliteVersion, restoreImage, type ImageManifest } from './pglite-image';

const migration = (version: string, sql: string): MigrationFile => ({ version, name: `${version}_m`, sql, checksum: checksum(sql) });
const MIGRATIONS = [migration('0001', 'CREATE TABLE a ()'), migration('0002', 'CREATE TABLE b ()')];

describe('the prepared image: when it is used, how it is restored', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'palimpsest-image-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  /** An image folder as prepare-image.ts leaves it: manifest.json and data/ with a PG_VERSION and a nested file. */
  function fakeImage(manifest: ImageManifest): string {
    const dir = join(tmp, 'image');
    mkdirSync(join(dir, 'data', 'base', '1'), { recursive: true });
    writeFileSync(join(dir, 'data', 'PG_VERSION'), '17\n');
    writeFileSync(join(dir, 'data', 'base', '1', '1259'), 'catalog');
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    return dir;
  }

  it('is used when it holds these migrations, or a prefix of them with the same checksums, for the installed PGlite', () => {
    const dir = fakeImage(manifestFor(MIGRATIONS));
    expect(chooseImage(dir, MIGRATIONS, undefined)).toEqual({ use: true, dir, manifest: manifestFor(MIGRATIONS) });
    rmSync(dir, { recursive: true });
    const older = fakeImage(manifestFor(MIGRATIONS.slice(0, 1)));
    expect(chooseImage(older, MIGRATIONS, undefined)).toMatchObject({ use: true, manifest: { migrations: [{ version: '0001' }] } });
  });

  it('is not used when a migration it holds changed, when it holds one we lack, or when another PGlite made it', () => {
    const changed = [MIGRATIONS[0]!, migration('0002', 'CREATE TABLE b (x int)')];
    const dir = fakeImage(manifestFor(MIGRATIONS));
    expect(chooseImage(dir, changed, undefined)).toEqual({ use: false, reason: expect.stringMatching(/holds migration 0002_m, which has changed since \(npm run build remakes it\)$/) });
    expect(chooseImage(dir, MIGRATIONS.slice(0, 1), undefined)).toEqual({ use: false, reason: expect.stringContaining('holds migrations this build lacks') });
    rmSync(dir, { recursive: true });
    const other = fakeImage(manifestFor(MIGRATIONS, '0.0.1'));
    expect(chooseImage(other, MIGRATIONS, undefined)).toEqual({ use: false, reason: expect.stringContaining(`was made by PGlite 0.0.1, not ${pgliteVersion()}`) });
  });

  it(`is not used when missing, or when ${IMAGE_ENV}=off; ${IMAGE_ENV} may name another folder`, () => {
    expect(chooseImage(join(tmp, 'nowhere'), MIGRATIONS, undefined)).toEqual({ use: false, reason: `no prepared image in ${join(tmp, 'nowhere')} (npm run build makes it)` });
    const dir = fakeImage(manifestFor(MIGRATIONS));
    expect(chooseImage(dir, MIGRATIONS, 'off')).toEqual({ use: false, reason: `${IMAGE_ENV}=off` });
    expect(chooseImage(join(tmp, 'nowhere'), MIGRATIONS, dir)).toMatchObject({ use: true, dir });
  });

  it('restores into a missing or empty directory, leaving no staging copy, and refuses one that holds files', () => {
    const dir = fakeImage(manifestFor(MIGRATIONS));
    restoreImage(dir, join(tmp, 'a'));
    expect(readFileSync(join(tmp, 'a', 'base', '1', '1259'), 'utf8')).toBe('catalog');
    mkdirSync(join(tmp, 'b'));
    restoreImage(dir, join(tmp, 'b'));
    expect(existsSync(join(tmp, 'b', 'PG_VERSION'))).toBe(true);
    mkdirSync(join(tmp, 'c'));
    writeFileSync(join(tmp, 'c', 'notes.txt'), 'mine');
    expect(() => restoreImage(dir, join(tmp, 'c'))).toThrow(`cannot restore the prepared image: ${join(tmp, 'c')} is not empty`);
    expect(readdirSync(join(tmp, 'c'))).toEqual(['notes.txt']);
    expect(readdirSync(tmp).sort()).toEqual(['a', 'b', 'c', 'image']);
  });

  it('removes a staging copy that a process left when it died mid-copy', () => {
    const dir = fakeImage(manifestFor(MIGRATIONS));
    mkdirSync(join(tmp, 'data.restoring-999999', 'base'), { recursive: true });
    restoreImage(dir, join(tmp, 'data'));
    expect(readdirSync(tmp).sort()).toEqual(['data', 'image']);
  });
});
