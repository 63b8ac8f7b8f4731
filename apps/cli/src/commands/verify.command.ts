import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { verifyStore } from '@palimpsest/application/audit/audit-bundle.use-case';
import { NotABundleError, verifyBundleFile } from '@palimpsest/application/audit/bundle-file.verifier';
import { describeFailure, type AuditReport } from '@palimpsest/core/audit/verify-bundle';
import { UsageError } from '../cli-errors';
import { withApp } from '../runtime';
import { configuredVerifierKey } from './export.command';
import { verifyGit } from './verify-git';

/**
 * `palimpsest verify <bundle>`: checks a bundle with no database and no service; without a bundle, the
 * live store's whole log as it stands (rows altered in SQL are named). Exit 0 verified, 1 failed.
 */
export function registerVerify(program: Command): void {
  program
    .command('verify')
    .description('Verify a bundle offline (no database, no service), or the live store: chains, checkpoints, proofs')
    .argument('[bundle]', 'a file written by `palimpsest export`; absent: the live store')
    .option('--key <verifier-key>', 'the verifier key to trust (default: the bundle\'s own; pass the one the service printed)')
    .option('--checkpoint <file>', 'a signed checkpoint seen before: a log cut back past it fails')
    .option('--workers <n>', 'the most worker threads to verify a bundle of lines with (default: one per core)', positiveInteger)
    .option('--git <dir>', 'check the commits the git reactor made in the repository at this workspace root against the live store, instead')
    .action(async (file: string | undefined, opts: { key?: string; checkpoint?: string; git?: string; workers?: number }) => {
      if (opts.git !== undefined) {
        if (file) throw new UsageError('--git checks the live store: give no bundle with it');
        return verifyGit(opts.git, opts.key);
      }
      const trusted = opts.checkpoint ? readFileSync(opts.checkpoint, 'utf8') : undefined;
      const report: AuditReport = file
        ? await verifyBundleFile(file, { key: opts.key?.trim(), trusted, workers: opts.workers }).catch((error: unknown) => {
            throw error instanceof NotABundleError ? new UsageError(error.message) : error;
          })
        : await withApp((ctx) => verifyStore(ctx, opts.key?.trim() ?? configuredVerifierKey(), trusted));
      const { failure, ...counts } = report;
      process.stdout.write(`${JSON.stringify({ ...counts, failure: failure ? { ...failure, message: describeFailure(failure) } : null }, null, 2)}\n`);
      if (!report.ok) {
        process.stderr.write(`palimpsest verify: FAILED: ${describeFailure(failure!)}\n`);
        process.exitCode = 1;
      }
    });
}

function positiveInteger(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`--workers takes a whole number of threads, at least 1: ${text}`);
  return n;
}
