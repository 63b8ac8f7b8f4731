import type { Command } from 'commander';
import { appContext } from '@palimpsest/composition/app-context.builder';
import type { Db } from '@palimpsest/store/db';
import { DataDirInUseError } from '@palimpsest/store/errors';
import { prepareStore } from '../runtime';
import { openDb } from '@palimpsest/store/open-db';
import type { Profile } from '@palimpsest/mcp/mcp-server/tool-list';
import { resolveProfilePolicy } from '@palimpsest/application/candidates/policy/policy-store';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { cliCorrelationId } from '../correlation-id';
import { VERSION } from '../cli-errors';
import { cliConfig, cliEnv } from '../cli-config';
import type { PalimpsestConfig } from '@palimpsest/composition/palimpsest-config';
import { gatewayAddressHolding } from '../store-access';
import type { RunningProjector } from '@palimpsest/projector/projector';
import { projectorConfigFrom, type ProjectorConfig } from '@palimpsest/projector/projector-config';
import { policyLine, workspaceRootLine } from '@palimpsest/api/lifecycle/start-report';
import { ignoreLostTerminal, STOP_SIGNALS } from '@palimpsest/api/lifecycle/stop-signals';
import { addWorkspaceOption, applyWorkspaceOption, givenWorkspaceRoot } from '../workspace-option';

const say = (line: string) => process.stderr.write(`${line}\n`);

/** The projector beside the server; Nest and the NATS client load only when it runs (every command loads this file). */
async function startProjectorHere(db: Db, config: ProjectorConfig): Promise<RunningProjector> {
  const [{ startProjector }, { configuredProjector }, { stderrLogger }] = await Promise.all([
    import('@palimpsest/projector/projector'),
    import('@palimpsest/projector/configured-processors'),
    import('@palimpsest/projector/stderr-logger'),
  ]);
  const logger = stderrLogger('palimpsest mcp');
  const onError = (error: unknown, consumer: string) => logger.error({ err: error, consumer }, 'projector consumer failed');
  return startProjector(db, configuredProjector(config, logger, onError));
}

/**
 * MCP over stdio: stdout carries protocol lines only; diagnostics go to stderr. With the store in hand
 * the server runs here; while a `palimpsest api` holds the embedded data directory, this relays to its
 * /mcp, so the client gets the same tools under the same profile.
 */
export function registerMcp(program: Command): void {
  const mcp = program
    .command('mcp')
    .description('Serve the catalog as MCP tools over stdio (official SDK); relays to a running gateway that holds the embedded store')
    .option('--profile <profile>', 'full | read-only | files (the file tools) | a profile of PALIMPSEST_POLICY_FILE (chosen at start-up; no request can widen it)', 'full');
  addWorkspaceOption(mcp).action(async (opts: { profile: string; workspace?: string }) => {
    const env = cliEnv();
    applyWorkspaceOption(opts.workspace, env, process.cwd());
    const config = cliConfig();
    const policy = resolveProfilePolicy(opts.profile, config.candidates.policyFile);
    let db: Db;
    try {
      db = await openDb({}, config.store);
    } catch (error) {
      if (!(error instanceof DataDirInUseError)) throw error;
      return relay(error, opts.profile, givenWorkspaceRoot(env));
    }
    await serveHere(db, opts.profile, policy, { config, env });
  });
}

// The MCP SDK loads only when this command runs: every command loads this file, and the SDK is the
// heaviest of its imports (about a tenth of a second).
async function serveHere(db: Db, profileName: string, policy: OwnerPolicy, { config, env }: { config: PalimpsestConfig; env: NodeJS.ProcessEnv }): Promise<void> {
  const [{ AsciiStdioServerTransport }, { createMcpServer }, { responseModeFrom }, { progressIntervalFrom }] = await Promise.all([
    import('@palimpsest/mcp/mcp-server/ascii-stdio-transport'),
    import('@palimpsest/mcp/mcp-server/mcp-server'),
    import('@palimpsest/mcp/mcp-server/response-mode'),
    import('@palimpsest/mcp/mcp-server/progress-interval'),
  ]);
  const profile: Profile = policy.mode === 'read_only' ? 'read-only' : 'full';
  const mode = responseModeFrom(env);
  const ctx = appContext(db, {}, config);
  await prepareStore(ctx);
  // One stdio connection, one client session (PALIMPSEST_CORRELATION_ID names it); each tool result tells it in _meta.
  const server = createMcpServer(ctx, { profile, policy, mode, version: VERSION, progressMs: progressIntervalFrom(env), correlationId: cliCorrelationId(env) });
  // The asynchronous read models follow the log here too, as in a gateway (off with PALIMPSEST_PROJECTOR=off).
  const projectorConfig = projectorConfigFrom(env);
  const projector = projectorConfig.enabled ? await startProjectorHere(db, projectorConfig) : null;
  let closing: Promise<void> | null = null;
  const shutdown = () =>
    (closing ??= (async () => {
      await server.close().catch(() => undefined);
      await ctx.commands.stop().catch(() => undefined); // every command's group stopped, its kill and exit recorded
      await projector?.close().catch(() => undefined);
      await ctx.wakes.close();
      await db.close();
    })());
  exitOn(shutdown);
  await server.connect(new AsciiStdioServerTransport());
  say(`palimpsest mcp ${workspaceRootLine(ctx.workspace?.path ?? null, 'palimpsest mcp')}`);
  say(`palimpsest mcp ${policyLine(config.candidates.policyFile)}`);
  say(`palimpsest mcp: ready (profile ${profileName}, response mode ${mode})`);
}

async function relay(held: DataDirInUseError, profile: string, given: string | null): Promise<void> {
  const { bridgeStdioToHttp } = await import('@palimpsest/mcp/mcp-server/mcp-http-bridge');
  const address = await gatewayAddressHolding(held);
  const url = new URL('/mcp', address.url);
  const bridge = await bridgeStdioToHttp({ url, token: address.token, profile: profile === 'full' ? undefined : profile, say });
  exitOn(() => bridge.close());
  void bridge.closed.then(() => process.exit(0));
  const root = address.workspace_root ?? 'none';
  const taken = given === null && address.workspace_root !== null ? ' (the gateway\'s)' : '';
  say(`palimpsest mcp: ready (profile ${profile}), relaying to the gateway pid ${address.pid} at ${url.href}, which holds ${held.dataDir}; workspace root ${root}${taken}`);
}

function exitOn(shutdown: () => Promise<void>): void {
  process.stdin.once('end', () => void shutdown().then(() => process.exit(0)));
  for (const signal of STOP_SIGNALS) {
    process.once(signal, () => {
      if (signal === 'SIGHUP') ignoreLostTerminal();
      void shutdown().then(() => process.exit(0));
    });
  }
}
