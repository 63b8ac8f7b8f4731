import { constants, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, rmdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { MigrationFile } from '../migrate';

/**
 * A prepared image: a PGlite data directory that `npm run build` created with initdb and migrated
 * (prepare-image.ts), beside a manifest naming the PGlite version and the migrations it holds.
 * A fresh data directory is a copy of it, which skips initdb (seconds, and a second WASM
 * instance's memory) and the migrations already in it.
 *
 *   <image>/manifest.json   { format, pglite, migrations: [{ version, name, checksum }], empty_directories }
 *   <image>/data/           the data directory, closed cleanly after a CHECKPOINT
 */
export interface ImageManifest {
  format: typeof IMAGE_FORMAT;
  pglite: string;
  migrations: { version: string; name: string; checksum: string }[];
  /**
   * The data directory's empty directories (pg_tblspc, pg_notify, …), relative: a packed package drops
   * empty directories, and PostgreSQL will not start without them, so a restore makes them again.
   */
  empty_directories?: string[];
}

export const IMAGE_FORMAT = 1;
/** Set to `off` to create a fresh data directory the slow way (initdb + every migration), or to an image folder. */
export const IMAGE_ENV = 'PALIMPSEST_PGLITE_IMAGE';

export type ImageChoice = { use: true; dir: string; manifest: ImageManifest } | { use: false; reason: string };

/** The installed PGlite's version: an image made by another version is not used. */
export function pgliteVersion(): string {
  const entry = require.resolve('@electric-sql/pglite');
  for (let dir = dirname(entry); dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === '@electric-sql/pglite' && pkg.version) return pkg.version;
  }
  throw new Error(`cannot find the version of @electric-sql/pglite above ${entry}`);
}

export function manifestFor(migrations: MigrationFile[], pglite: string = pgliteVersion()): ImageManifest {
  return {
    format: IMAGE_FORMAT,
    pglite,
    migrations: migrations.map(({ version, name, checksum }) => ({ version, name, checksum })),
  };
}

/** Where the build puts the image: `dist/pglite-image` under the repository root (found from the migrations folder). */
export function defaultImageDir(migrationsDir: string): string {
  return join(dirname(migrationsDir), 'dist', 'pglite-image');
}

export function readManifest(imageDir: string): ImageManifest | undefined {
  const file = join(imageDir, 'manifest.json');
  if (!existsSync(file) || !existsSync(join(imageDir, 'data', 'PG_VERSION'))) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as ImageManifest;
}

/**
 * Decides whether the image can seed a fresh data directory for these migrations: same format and
 * PGlite version, and its migrations a prefix of ours with the same checksums (migrate() applies the rest).
 */
export function chooseImage(imageDir: string, migrations: MigrationFile[], image: string | undefined): ImageChoice {
  if (image === 'off') return { use: false, reason: `${IMAGE_ENV}=off` };
  const dir = image || imageDir;
  const manifest = readManifest(dir);
  if (!manifest) return { use: false, reason: `no prepared image in ${dir} (npm run build makes it)` };
  const stale = staleness(manifest, manifestFor(migrations));
  return stale ? { use: false, reason: `the prepared image in ${dir} ${stale} (npm run build remakes it)` } : { use: true, dir, manifest };
}

function staleness(image: ImageManifest, wanted: ImageManifest): string | undefined {
  if (image.format !== wanted.format) return `has format ${image.format}, not ${wanted.format}`;
  if (image.pglite !== wanted.pglite) return `was made by PGlite ${image.pglite}, not ${wanted.pglite}`;
  if (image.migrations.length > wanted.migrations.length) return 'holds migrations this build lacks';
  const changed = image.migrations.find((m, i) => m.version !== wanted.migrations[i]!.version || m.checksum !== wanted.migrations[i]!.checksum);
  return changed ? `holds migration ${changed.name}, which has changed since` : undefined;
}

/**
 * Copies the image's data directory to `dataDir`: into a sibling first, then renamed into place, so
 * a copy cut short never looks like a database. `dataDir` must be missing or empty (the caller holds its lock).
 */
export function restoreImage(imageDir: string, dataDir: string): void {
  const prefix = `${basename(dataDir)}.restoring-`;
  // Only the lock holder restores, so any other staging copy was left by a process that died mid-copy.
  for (const name of readdirSync(dirname(dataDir))) if (name.startsWith(prefix)) rmSync(join(dirname(dataDir), name), { recursive: true, force: true });
  const staging = join(dirname(dataDir), `${prefix}${process.pid}`);
  try {
    // A copy-on-write clone where the file system offers one (btrfs, XFS), else a plain copy.
    cpSync(join(imageDir, 'data'), staging, { recursive: true, mode: constants.COPYFILE_FICLONE });
    for (const dir of readManifest(imageDir)?.empty_directories ?? []) mkdirSync(join(staging, dir), { recursive: true });
    if (existsSync(dataDir)) {
      if (readdirSync(dataDir).length > 0) throw new Error(`cannot restore the prepared image: ${dataDir} is not empty`);
      rmdirSync(dataDir);
    }
    renameSync(staging, dataDir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Every empty directory under `dir`, relative to it, in POSIX spelling. */
export function emptyDirectories(dir: string, under = ''): string[] {
  const entries = readdirSync(join(dir, under), { withFileTypes: true });
  if (entries.length === 0) return under ? [under] : [];
  return entries.filter((e) => e.isDirectory()).flatMap((e) => emptyDirectories(dir, under ? `${under}/${e.name}` : e.name));
}
