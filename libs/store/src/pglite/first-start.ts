import type { Db } from '../db';
import { defaultMigrationsDir, migrate, readMigrations } from '../migrate';
import { chooseImage, defaultImageDir, restoreImage, type ImageChoice } from './pglite-image';

/**
 * The first start of a data directory, in two halves around PGlite's start: before it, seed the
 * directory from the prepared image (or leave it empty for initdb); after it, apply the migrations
 * the image lacks. Each step is reported, because without an image this takes seconds.
 */
export interface FirstStart {
  startedAt: number;
  choice: ImageChoice;
  report: (line: string) => void;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `useImage: false` always runs initdb (prepare-image.ts: the image is made from scratch). */
export function startFirstStart(dataDir: string, onProgress: ((line: string) => void) | undefined, useImage = true, image?: string): FirstStart {
  const report = onProgress ?? (() => undefined);
  const startedAt = Date.now();
  report(`creating the embedded database in ${dataDir}`);
  const migrationsDir = defaultMigrationsDir();
  const choice: ImageChoice = useImage
    ? chooseImage(defaultImageDir(migrationsDir), readMigrations(migrationsDir), image)
    : { use: false, reason: 'making the prepared image' };
  if (choice.use) {
    restoreImage(choice.dir, dataDir);
    report(`restored the prepared image (${plural(choice.manifest.migrations.length, 'migration')}) in ${Date.now() - startedAt} ms`);
  } else {
    report(`${choice.reason}: running initdb, which takes several seconds`);
  }
  return { startedAt, choice, report };
}

export async function finishFirstStart(db: Db, first: FirstStart): Promise<void> {
  const migratingAt = Date.now();
  if (!first.choice.use) first.report(`initdb done in ${migratingAt - first.startedAt} ms`);
  const { applied } = await migrate(db);
  const fromImage = first.choice.use ? ` (${first.choice.manifest.migrations.length} came with the image)` : '';
  first.report(`applied ${plural(applied.length, 'migration')} in ${Date.now() - migratingAt} ms${fromImage}`);
  first.report(`embedded database ready in ${Date.now() - first.startedAt} ms`);
}
