import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Command } from 'commander';
import { exportBundle, NoWorkspaceError } from '@palimpsest/application/audit/audit-bundle.use-case';
import { bundleLines } from '@palimpsest/core/audit/bundle-lines';
import { WORKSPACE_ROOT_ENV } from '@palimpsest/workspace/workspace-root';
import { auditConfigFrom } from '@palimpsest/projections/audit/audit-config';
import { auditSigner, loadOrCreateAuditKey } from '@palimpsest/projections/audit/audit-signer';
import { cliEnv } from '../cli-config';
import { UsageError } from '../cli-errors';
import { withApp } from '../runtime';
import { applyWorkspaceOption } from '../workspace-option';

/** The verifier key of the configured audit log, or a UsageError saying how to turn it on. */
export function configuredVerifierKey(): string {
  const audit = auditConfigFrom(cliEnv(), process.cwd());
  if (!audit) throw new UsageError('the audit log is off: set PALIMPSEST_AUDIT=on (or PALIMPSEST_AUDIT_KEY) as the service runs with');
  return auditSigner(loadOrCreateAuditKey(audit.keyFile)).verifierKey;
}

/** `palimpsest export`: a verification bundle, one event a line (`palimpsest-audit-bundle/2`), anyone can check offline with `palimpsest verify <bundle>`. */
export function registerExport(program: Command): void {
  program
    .command('export')
    .description('Write a verification bundle: events (the whole log, --target ones or a --workspace\'s), signed checkpoints, proofs, the verifier key')
    .option('--target <uuid...>', 'only these targets\' streams (each whole)')
    .option('--workspace [dir]', `every target bound to a file of the workspace (the configured one, or <dir>; env ${WORKSPACE_ROOT_ENV})`)
    .option('-o, --output <file>', 'where to write it (default: standard output)')
    .option('--key', 'print only the verifier key')
    .action(async (opts: { target?: string[]; workspace?: string | true; output?: string; key?: boolean }) => {
      if (typeof opts.workspace === 'string') applyWorkspaceOption(opts.workspace, cliEnv(), process.cwd());
      const key = configuredVerifierKey();
      if (opts.key) {
        process.stdout.write(`${key}\n`);
        return;
      }
      const bundle = await withApp((ctx) => exportBundle(ctx, key, { targets: opts.target, workspace: opts.workspace !== undefined })).catch((error: unknown) => {
        throw error instanceof NoWorkspaceError ? new UsageError(error.message) : error;
      });
      await writeLines(bundleLines(bundle), opts.output);
      process.stderr.write(`palimpsest export: ${bundle.events.length} events, ${bundle.checkpoints.length} checkpoints\n`);
    });
}

/** Lines batched into writes of about a megabyte, waiting when the stream is full (a million events do not fit one string). */
async function writeLines(lines: Iterable<string>, file: string | undefined): Promise<void> {
  const out = file ? createWriteStream(file) : process.stdout;
  let batch = '';
  for (const line of lines) {
    batch += line;
    if (batch.length < 1 << 20) continue;
    if (!out.write(batch)) await once(out, 'drain');
    batch = '';
  }
  if (batch) out.write(batch);
  if (file) await new Promise<void>((resolve, reject) => (out as ReturnType<typeof createWriteStream>).end((error?: Error | null) => (error ? reject(error) : resolve())));
}
