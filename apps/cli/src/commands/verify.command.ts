import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { verifyStore } from '@palimpsest/application/audit/audit-bundle.use-case';
import type { AuditBundle } from '@palimpsest/core/audit/audit-bundle';
import { describeFailure, verifyBundle, type AuditReport } from '@palimpsest/core/audit/verify-bundle';
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
    .option('--git <dir>', 'check the commits the git reactor made in the repository at this workspace root against the live store, instead')
    .action(async (file: string | undefined, opts: { key?: string; checkpoint?: string; git?: string }) => {
      if (opts.git !== undefined) {
        if (file) throw new UsageError('--git checks the live store: give no bundle with it');
        return verifyGit(opts.git, opts.key);
      }
      const trusted = opts.checkpoint ? readFileSync(opts.checkpoint, 'utf8') : undefined;
      let report: AuditReport;
      if (file) {
        const bundle = parseBundle(readFileSync(file, 'utf8'));
        if (opts.key && opts.key.trim() !== bundle.verifier_key) {
          report = { ok: false, failure: { kind: 'bundle', reason: 'signed by another key than the one given' }, events: 0, streams: 0, checkpoints: 0, proven: 0, latest: null };
        } else report = verifyParsed(bundle, trusted);
      } else {
        const key = opts.key?.trim() ?? configuredVerifierKey();
        report = await withApp((ctx) => verifyStore(ctx, key, trusted));
      }
      const { failure, ...counts } = report;
      process.stdout.write(`${JSON.stringify({ ...counts, failure: failure ? { ...failure, message: describeFailure(failure) } : null }, null, 2)}\n`);
      if (!report.ok) {
        process.stderr.write(`palimpsest verify: FAILED: ${describeFailure(failure!)}\n`);
        process.exitCode = 1;
      }
    });
}

/** A bundle whose shape is wrong fails as a bundle, never as a crash. */
function verifyParsed(bundle: AuditBundle, trusted: string | undefined): AuditReport {
  try {
    return verifyBundle(bundle, trusted);
  } catch (error) {
    return { ok: false, failure: { kind: 'bundle', reason: `malformed: ${(error as Error).message}` }, events: 0, streams: 0, checkpoints: 0, proven: 0, latest: null };
  }
}

function parseBundle(text: string): AuditBundle {
  try {
    return JSON.parse(text) as AuditBundle;
  } catch (error) {
    throw new UsageError(`not a bundle (JSON): ${(error as Error).message}`);
  }
}
