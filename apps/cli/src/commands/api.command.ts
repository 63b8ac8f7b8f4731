import type { Command } from 'commander';
import { VERSION } from '../cli-errors';
import { describeStore } from '../runtime';
import { cliEnv } from '../cli-config';
import { addWorkspaceOption, applyWorkspaceOption } from '../workspace-option';

/** `palimpsest api` (and `npm start`): the HTTP gateway. Nest is loaded only when this command runs. */
export function registerApi(program: Command): void {
  const api = program
    .command('api')
    .description('Serve every catalog operation over HTTP under /v1 and as MCP tools at /mcp, with /docs (OpenAPI 3.1), /health and /metrics')
    .option('--port <port>', 'port to listen on (env PORT, default 3000; 0 picks a free one)')
    .option('--host <host>', 'interface to listen on (env HOST, default 127.0.0.1)')
    .option('--no-auth', 'serve without bearer tokens: local development only, loopback hosts only')
    .option('--no-local-token', 'on the embedded store, do not create and print a local token at start-up')
    .option('--mcp-stateless', 'serve /mcp without sessions, for load-balanced deployments (env PALIMPSEST_MCP_STATELESS=1)');
  addWorkspaceOption(api).action(
    async (opts: { port?: string; host?: string; auth: boolean; localToken: boolean; mcpStateless?: boolean; workspace?: string }) => {
      applyWorkspaceOption(opts.workspace, cliEnv(), process.cwd());
      const { runApi } = await import('@palimpsest/api/run-api');
      await runApi({ ...opts, version: VERSION, storeLabel: describeStore() });
    },
  );
}
