import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { generatedFiles } from '@palimpsest/protocol/publish/generated-files';

export const RELEASE_LOCK = 'schemas/released.lock.json';
const VERSIONED_SCHEMA = /^schemas\/.+\.v\d+\.json$/;

/**
 * Writes everything generated from the catalog: schemas/, docs/operations.md and the TypeScript, Python and Rust clients.
 * `--release` pins the versioned schema files; a pinned file that would change is refused.
 */
export function registerGenerate(program: Command): void {
  program
    .command('generate')
    .description('Write the files generated from the operation catalog (schemas/, docs/operations.md, clients/)')
    .option('--root <dir>', 'repository root', '.')
    .option('--release', `pin the versioned schema files in ${RELEASE_LOCK}`)
    .action((opts: { root: string; release?: boolean }) => {
      const root = resolve(opts.root);
      const lockPath = join(root, RELEASE_LOCK);
      const lock: Record<string, string> = existsSync(lockPath) ? JSON.parse(readFileSync(lockPath, 'utf8')) : {};
      for (const [path, text] of generatedFiles()) {
        const key = path.replace(/^schemas\//, '');
        const digest = createHash('sha256').update(text).digest('hex');
        if (lock[key] && lock[key] !== digest) {
          throw new Error(`${path} is released and frozen; publish a new version instead of changing it`);
        }
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), text);
        if (opts.release && VERSIONED_SCHEMA.test(path) && path.startsWith('schemas/events/')) lock[key] = digest;
        process.stdout.write(`wrote ${path}\n`);
      }
      if (opts.release) writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
    });
}
