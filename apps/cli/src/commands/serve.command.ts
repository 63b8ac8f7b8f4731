import type { Command } from 'commander';
import { resolveProfilePolicy } from '@palimpsest/application/candidates/policy/policy-store';
import { dispatchRequest } from '@palimpsest/application/dispatch/dispatch';
import { withProtocolMethods } from '@palimpsest/mcp/json-lines/protocol-methods';
import { runJsonLinesSession } from '@palimpsest/mcp/json-lines/json-lines-session';
import { operationOfMethod } from '@palimpsest/protocol/protocol-methods/workspace-methods';
import type { Outcome } from '@palimpsest/protocol/outcome';
import { withStore } from '../store-access';
import { cliPolicyFile } from '../cli-config';
import { cliCorrelationId, reportCorrelationId } from '../correlation-id';

/**
 * `palimpsest serve`: the catalog as JSON-RPC 2.0 over newline-delimited JSON on stdin/stdout.
 * stdout carries responses only; diagnostics go to stderr. Exit status: 0 after EOF, 65 when a
 * frame or a response exceeded its size limit, 74 when stdout went away.
 */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Serve the catalog as JSON-RPC 2.0 over newline-delimited JSON on stdin/stdout (one request per line)')
    .option(
      '--profile <profile>',
      'full | read-only | a profile of PALIMPSEST_POLICY_FILE; methods the profile does not allow answer -32601',
      'full',
    )
    .action(async (opts: { profile: string }) => {
      const policy = resolveProfilePolicy(opts.profile, cliPolicyFile());
      const readOnly = policy.mode === 'read_only';
      // One connection, one client session: every call on it records this id.
      const correlationId = cliCorrelationId();
      reportCorrelationId('serve', correlationId);
      const session = (call: (method: string, params: unknown) => Promise<Outcome>) =>
        runJsonLinesSession({
          input: process.stdin,
          output: process.stdout,
          ...withProtocolMethods(policy, (m, p) => call(operationOfMethod(m), p)),
          onInternalError: (method, err) => {
            process.stderr.write(`palimpsest serve: ${method} failed: ${err instanceof Error ? err.message : String(err)}\n`);
          },
        });
      const end = await withStore({
        local: (ctx) => session((method, params) => dispatchRequest(ctx, method, params, { readOnly, policy, correlationId })),
        gateway: (gw) => session((operation, args) => gw.dispatchRequest(operation, args, { read_only: readOnly, profile: opts.profile, correlation_id: correlationId })),
      });
      if (end.reason !== 'eof') process.stderr.write(`palimpsest serve: stopped (${end.reason})\n`);
      process.exitCode = end.exitCode;
    });
}
