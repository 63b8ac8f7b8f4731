import { dispatchRequest } from '@palimpsest/application/dispatch/dispatch';
import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import type { Command } from 'commander';
import { resolveProfilePolicy } from '@palimpsest/application/candidates/policy/policy-store';
import { isCallFailure } from '@palimpsest/protocol/outcome';
import { printJson } from '../runtime';
import { withStore } from '../store-access';
import { cliPolicyFile } from '../cli-config';
import { cliCorrelationId, reportCorrelationId } from '../correlation-id';

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function registerCall(program: Command): void {
  program
    .command('call')
    .description('Run one catalog operation: arguments as JSON on stdin (or --args), result JSON on stdout')
    .argument('<operation>', `operation name, e.g. palimpsest_submit_edits (${CATALOG.length} operations: see \`palimpsest operations\`)`)
    .option('-a, --args <json>', 'arguments as a JSON object instead of stdin')
    .option('--read-only', 'refuse write operations (read-only profile)')
    .option('--profile <profile>', 'owner policy to call under: full, read-only or a profile of PALIMPSEST_POLICY_FILE')
    .action(async (operation: string, opts: { args?: string; readOnly?: boolean; profile?: string }) => {
      const policy = opts.profile === undefined ? undefined : resolveProfilePolicy(opts.profile, cliPolicyFile());
      const text = opts.args ?? (await readStdin());
      let args: unknown = {};
      if (text.trim() !== '') {
        try {
          args = JSON.parse(text);
        } catch (err) {
          printJson({ status: 'invalid_argument', code: 'invalid_json', failure_detail: `Arguments are not JSON: ${(err as Error).message}` });
          process.exitCode = 2;
          return;
        }
      }
      const readOnly = opts.readOnly || policy?.mode === 'read_only';
      const correlationId = cliCorrelationId();
      const result = await withStore({
        local: (ctx) => dispatchRequest(ctx, operation, args, { readOnly, policy, correlationId }),
        gateway: (gw) => gw.dispatchRequest(operation, args, { read_only: readOnly === true, profile: opts.profile, correlation_id: correlationId }),
      });
      reportCorrelationId('call', correlationId);
      printJson(result);
      if (isCallFailure(result.status)) process.exitCode = 2;
    });

  program
    .command('operations')
    .description('List catalog operations')
    .option('--json', 'print the catalog entries as JSON')
    .action((opts: { json?: boolean }) => {
      if (opts.json) return printJson(CATALOG);
      for (const op of CATALOG) process.stdout.write(`${op.name.padEnd(34)} ${op.readOnly ? 'read ' : 'write'}  ${op.title}\n`);
    });
}
