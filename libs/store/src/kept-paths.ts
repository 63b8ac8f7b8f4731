import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { KeptPath } from '@palimpsest/workspace/workspace-root';
import { defaultMigrationsDir } from './migrate';
import { defaultImageDir, IMAGE_ENV } from './pglite/pglite-image';

/**
 * The directory under the working directory an embedded store uses when PALIMPSEST_DATA_DIR is not set:
 * core's PALIMPSEST_DIRECTORY, which the path rules reserve (spelled here, not imported: openDb loads in
 * processes that resolve relative modules only; kept-paths.int.spec.ts holds the two equal).
 */
export const DEFAULT_DATA_PARENT = '.palimpsest';

/** The embedded store's data directory as openDb() chooses it from the environment (absolute). */
export function embeddedDataDirOf(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  return resolve(cwd, env.PALIMPSEST_DATA_DIR || join(DEFAULT_DATA_PARENT, 'data'));
}

/**
 * What the embedded store keeps on disk, configured or not (DATABASE_URL may point elsewhere today and
 * the data directory be used tomorrow): the data directory, with its lock, gateway address (a full-scope
 * credential) and restore copies named `<dataDir>.…` beside it; the default one's parent, `.palimpsest`;
 * and the prepared image a new data directory is copied from (whoever writes it writes every new store).
 */
export function storeKeptPaths(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): KeptPath[] {
  const kept: KeptPath[] = [
    { path: embeddedDataDirOf(env, cwd), what: "the embedded store's data directory, lock and gateway credential", siblings: true },
    { path: resolve(cwd, DEFAULT_DATA_PARENT), what: "Palimpsest's own directory (its embedded store, lock and gateway credential)" },
  ];
  const image = env[IMAGE_ENV] || builtImageDir();
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
export function prepareDefaultDataParent(cwd: string = process.cwd()): void {
  const dir = resolve(cwd, DEFAULT_DATA_PARENT);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(join(dir, '.gitignore'), '# Palimpsest keeps its embedded store here.\n*\n', { flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
}
