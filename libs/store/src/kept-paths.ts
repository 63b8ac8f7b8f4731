import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { KeptPath } from '@palimpsest/core/workspace/kept-path';
import { defaultMigrationsDir } from './migrate';
import { defaultImageDir } from './pglite/pglite-image';
import { DEFAULT_DATA_PARENT, type StoreConfig } from './store-config';

export { DEFAULT_DATA_PARENT } from './store-config';

/**
 * What the embedded store keeps on disk, configured or not (DATABASE_URL may point elsewhere today and
 * the data directory be used tomorrow): the data directory, with its lock, gateway address (a full-scope
 * credential) and restore copies named `<dataDir>.…` beside it; the default one's parent, `.palimpsest`;
 * and the prepared image a new data directory is copied from (whoever writes it writes every new store).
 */
export function storeKeptPaths(config: StoreConfig): KeptPath[] {
  const { cwd } = config;
  const kept: KeptPath[] = [
    { path: config.dataDir, what: "the embedded store's data directory, lock and gateway credential", siblings: true },
    { path: resolve(cwd, DEFAULT_DATA_PARENT), what: "Palimpsest's own directory (its embedded store, lock and gateway credential)" },
  ];
  const image = config.pgliteImage || builtImageDir();
  if (image !== 'off' && image !== undefined) kept.push({ path: resolve(cwd, image), what: "the embedded store's prepared image", siblings: true });
  return kept;
}

function builtImageDir(): string | undefined {
  try {
    return defaultImageDir(defaultMigrationsDir());
  } catch {
    return undefined; // no migrations folder here: no image either
  }
}

/**
 * The default `.palimpsest/` under the working directory, made with a `.gitignore` of `*` so the
 * project's git never records the store (nor the credential beside it). An existing `.gitignore` is
 * left as the user has it.
 */
export function prepareDefaultDataParent(cwd: string): void {
  const dir = resolve(cwd, DEFAULT_DATA_PARENT);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(join(dir, '.gitignore'), '# Palimpsest keeps its embedded store here.\n*\n', { flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
}
