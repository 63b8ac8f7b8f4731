import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { publishedSchemaFiles, renderSchemaFile } from '@palimpsest/protocol/publish/published-schemas';

const LOCK = 'released.lock.json';

/**
 * Writes schemas/ from the catalog. `--release` pins every published file's hash in the release lock;
 * a file already pinned is never re-pinned, so a released schema cannot change silently.
 */
export function registerSchemas(program: Command): void {
  program
    .command('schemas')
    .description('Write the published JSON Schemas (schemas/) generated from the catalog')
    .option('--dir <dir>', 'output directory', 'schemas')
    .option('--release', 'pin the current files in schemas/released.lock.json')
    .action((opts: { dir: string; release?: boolean }) => {
      const dir = resolve(opts.dir);
      const lockPath = join(dir, LOCK);
      const lock: Record<string, string> = existsSync(lockPath) ? JSON.parse(readFileSync(lockPath, 'utf8')) : {};
      for (const [path, value] of publishedSchemaFiles()) {
        const text = renderSchemaFile(value);
        const digest = createHash('sha256').update(text).digest('hex');
        if (lock[path] && lock[path] !== digest) {
          throw new Error(`${path} is released and frozen; publish a new version instead of changing it`);
        }
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
        // Versioned files are frozen once released; the index grows with every release.
        if (opts.release && /\.v\d+\.json$/.test(path)) lock[path] = digest;
        process.stdout.write(`wrote ${path}\n`);
      }
      if (opts.release) writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
    });
}
