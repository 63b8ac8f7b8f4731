import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PALIMPSEST_DIRECTORY } from '@palimpsest/core/workspace/workspace-path';
import { DEFAULT_DATA_PARENT, prepareDefaultDataParent, storeKeptPaths } from './kept-paths';
import { readStoreConfig } from './store-config';

describe('what the embedded store keeps on disk', () => {
  let cwd: string;
  beforeEach(() => {
    cwd = mkdtempSync(join(tmpdir(), 'palimpsest-kept-'));
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  it("keeps its default data directory under the directory the path rules reserve", () => {
    expect(DEFAULT_DATA_PARENT).toBe(PALIMPSEST_DIRECTORY);
  });

  it('names the data directory (with its siblings), .palimpsest and the prepared image, relative to the working directory', () => {
    const kept = storeKeptPaths(readStoreConfig({ PALIMPSEST_DATA_DIR: 'var/store', PALIMPSEST_PGLITE_IMAGE: 'img' }, cwd));
    expect(kept).toEqual([
      { path: join(cwd, 'var/store'), what: expect.any(String), siblings: true },
      { path: join(cwd, '.palimpsest'), what: expect.any(String) },
      { path: join(cwd, 'img'), what: expect.any(String), siblings: true },
    ]);
    expect(storeKeptPaths(readStoreConfig({}, cwd))[0].path).toBe(join(cwd, '.palimpsest', 'data'));
    expect(storeKeptPaths(readStoreConfig({ PALIMPSEST_PGLITE_IMAGE: 'off' }, cwd))).toHaveLength(2);
  });

  it('makes the default .palimpsest/ ignored by git, and leaves a .gitignore the user changed as it is', () => {
    prepareDefaultDataParent(cwd);
    const ignore = join(cwd, '.palimpsest', '.gitignore');
    expect(readFileSync(ignore, 'utf8').split('\n')).toContain('*');
    writeFileSync(ignore, 'data/\n');
    prepareDefaultDataParent(cwd);
    expect(readFileSync(ignore, 'utf8')).toBe('data/\n');
  });
});
