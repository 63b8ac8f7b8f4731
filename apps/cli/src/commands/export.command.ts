import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { exportBundle, NoWorkspaceError } from '@palimpsest/application/audit/audit-bundle.use-case';
import { bundleChunks } from '@palimpsest/core/audit/bundle-lines';
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
      await writeChunks(bundleChunks(bundle), opts.output);
      process.stderr.write(`palimpsest export: ${bundle.events.length} events, ${bundle.checkpoints.length} checkpoints\n`);
    });
}

/** The chunks to the file (a file that cannot be written is a usage error, not a crash), or to standard output, waiting when it is full. */
async function writeChunks(chunks: Iterable<string>, file: string | undefined): Promise<void> {
  if (file) {
    await pipeline(Readable.from(chunks), createWriteStream(file)).catch((error: unknown) => {
      throw new UsageError(`cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);
    });
    return;
  }
  for (const chunk of chunks) if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
}
