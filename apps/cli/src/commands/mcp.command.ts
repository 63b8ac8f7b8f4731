import type { Command } from 'commander';
import { appContext } from '@palimpsest/application/app-context';
import { migrate } from '@palimpsest/store/migrate';
import { openDb } from '@palimpsest/store/open-db';
import { AsciiStdioServerTransport } from '@palimpsest/mcp/mcp-server/ascii-stdio-transport';
import { createMcpServer } from '@palimpsest/mcp/mcp-server/mcp-server';
import { responseModeFrom } from '@palimpsest/mcp/mcp-server/response-mode';
import type { Profile } from '@palimpsest/mcp/mcp-server/tool-list';
import { resolveProfilePolicy } from '@palimpsest/application/candidates/policy/policy-store';

const VERSION = '0.1.0';

/** MCP over stdio: stdout carries protocol lines only; diagnostics go to stderr. */
export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('Serve the catalog as MCP tools over stdio (official SDK)')
    .option('--profile <profile>', 'full | read-only | a profile of PALIMPSEST_POLICY_FILE (chosen at start-up; no request can widen it)', 'full')
    .action(async (opts: { profile: string }) => {
      const policy = resolveProfilePolicy(opts.profile);
      const profile: Profile = policy.mode === 'read_only' ? 'read-only' : 'full';
      const mode = responseModeFrom(process.env);
      const db = await openDb();
      await migrate(db);
      const ctx = appContext(db);
      const server = createMcpServer(ctx, { profile, policy, mode, version: VERSION });
      let closing: Promise<void> | null = null;
      const shutdown = () =>
        (closing ??= (async () => {
          await server.close().catch(() => undefined);
          await ctx.wakes.close();
          await db.close();
        })());
      process.stdin.once('end', () => void shutdown().then(() => process.exit(0)));
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        process.once(signal, () => void shutdown().then(() => process.exit(0)));
      }
      await server.connect(new AsciiStdioServerTransport());
      process.stderr.write(`palimpsest mcp: ready (profile ${opts.profile}, response mode ${mode})\n`);
    });
}
