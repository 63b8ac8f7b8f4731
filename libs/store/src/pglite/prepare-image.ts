import { isDeepStrictEqual } from 'node:util';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultMigrationsDir, readMigrations } from '../migrate';
import { openPgliteDb } from './pglite-db';
import { defaultImageDir, emptyDirectories, manifestFor, readManifest, type ImageManifest } from './pglite-image';

/**
 * Makes the prepared image (pglite-image.ts) from the migrations: initdb, every migration, a
 * CHECKPOINT so the copy starts without replaying WAL, a clean close. `npm run build` runs it; it
 * does nothing when the image already holds these migrations for the installed PGlite.
 *
 *   node dist/libs/store/src/pglite/prepare-image.js [--force] [image-dir]
 */
export interface PrepareOptions {
  migrationsDir?: string;
  /** Remake it even when it is up to date. */
  force?: boolean;
  onProgress?: (line: string) => void;
}

export async function prepareImage(imageDir: string, opts: PrepareOptions = {}): Promise<{ made: boolean; manifest: ImageManifest }> {
  const migrationsDir = opts.migrationsDir ?? defaultMigrationsDir();
  const wanted = manifestFor(readMigrations(migrationsDir));
  const current = readManifest(imageDir);
  if (!opts.force && current?.empty_directories && isDeepStrictEqual({ ...current, empty_directories: undefined }, { ...wanted, empty_directories: undefined })) {
    return { made: false, manifest: current };
  }

  const staging = `${imageDir}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const db = await openPgliteDb({ dataDir: join(staging, 'data'), useImage: false, onProgress: opts.onProgress });
    let applied: ImageManifest['migrations'];
    try {
      applied = (await db.query<ImageManifest['migrations'][number]>('SELECT version, name, checksum FROM schema_migrations ORDER BY version')).rows;
      await db.exec('CHECKPOINT');
    } finally {
      await db.close();
    }
    const manifest: ImageManifest = { ...wanted, migrations: applied, empty_directories: emptyDirectories(join(staging, 'data')) };
    if (!isDeepStrictEqual(manifest.migrations, wanted.migrations)) throw new Error(`the image holds ${JSON.stringify(applied)}, not the migrations in ${migrationsDir}`);
    writeFileSync(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    rmSync(imageDir, { recursive: true, force: true });
    renameSync(staging, imageDir);
    return { made: true, manifest };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

async function main(argv: string[]): Promise<void> {
  const force = argv.includes('--force');
  const imageDir = argv.find((arg) => !arg.startsWith('--')) ?? defaultImageDir(defaultMigrationsDir());
  const say = (line: string) => process.stderr.write(`prepare-image: ${line}\n`);
  const { made, manifest } = await prepareImage(imageDir, { force, onProgress: say });
  const what = `${manifest.migrations.length} migrations, PGlite ${manifest.pglite}`;
  say(made ? `made ${imageDir} (${what})` : `${imageDir} is up to date (${what})`);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`prepare-image: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
