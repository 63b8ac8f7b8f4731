import { Option, type Command } from 'commander';
import { dispatch } from '@palimpsest/application/dispatch/dispatch';
import { catalogAvailability, SERVE_PROFILES, type ServeProfile } from '@palimpsest/mcp/json-lines/catalog-methods';
import { runJsonLinesSession } from '@palimpsest/mcp/json-lines/json-lines-session';
import { withApp } from '../runtime';

/**
 * `palimpsest serve`: the catalog as JSON-RPC 2.0 over newline-delimited JSON on stdin/stdout.
 * stdout carries responses only; diagnostics go to stderr. Exit status: 0 after EOF, 65 when a
 * frame or a response exceeded its size limit, 74 when stdout went away.
 */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Serve the catalog as JSON-RPC 2.0 over newline-delimited JSON on stdin/stdout (one request per line)')
    .addOption(
      new Option('--profile <profile>', 'full serves every operation; read-only refuses write methods with -32601')
        .choices([...SERVE_PROFILES])
        .default('full'),
    )
    .action(async (opts: { profile: ServeProfile }) => {
      const readOnly = opts.profile === 'read-only';
      const end = await withApp((ctx) =>
        runJsonLinesSession({
          input: process.stdin,
          output: process.stdout,
          availability: catalogAvailability(opts.profile),
          call: (method, params) => dispatch(ctx, method, params, { readOnly }),
          onInternalError: (method, err) => {
            process.stderr.write(`palimpsest serve: ${method} failed: ${err instanceof Error ? err.message : String(err)}\n`);
          },
        }),
      );
      if (end.reason !== 'eof') process.stderr.write(`palimpsest serve: stopped (${end.reason})\n`);
      process.exitCode = end.exitCode;
    });
}
