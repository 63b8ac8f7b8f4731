import type { Command } from 'commander';
import { currentGatewayAddress } from '@palimpsest/api/lifecycle/gateway-address';
import type { ExecutorReport } from '@palimpsest/api/executors/executor-presence';
import { UsageError } from '../cli-errors';
import { cliConfig } from '../cli-config';
import { printJson } from '../runtime';

/** The gateway to ask: --gateway, else the one serving this machine's embedded data directory. */
function gatewayUrl(given: string | undefined): string {
  if (given) {
    try {
      return new URL(given).origin;
    } catch {
      throw new UsageError(`--gateway must be the gateway's URL (http://host:port), got ${JSON.stringify(given)}`);
    }
  }
  const address = currentGatewayAddress(cliConfig().store.dataDir);
  if (!address) {
    throw new UsageError('no gateway is serving this data directory: executors connect to a running gateway; name it with --gateway <url>');
  }
  return address.url;
}

function line(e: ExecutorReport): string {
  const projects = e.projects.map((p) => `${p.slug} (${p.id})`).join(', ');
  return `${e.device_id}  ${e.platform}  palimpsest ${e.cli_version}  since ${e.connected_at}  heartbeat ${e.last_heartbeat_at ?? 'none yet'}\n    ${projects}\n`;
}

/**
 * `palimpsest projects`: the executors connected to a gateway now (`palimpsest connect`) and the projects
 * each holds, as its public /health reports them. Presence lives in each gateway's memory: behind a load
 * balancer, ask each gateway.
 */
export function registerProjects(program: Command): void {
  program
    .command('projects')
    .description('The executors connected to a gateway (palimpsest connect) and their projects')
    .option('--gateway <url>', 'the gateway to ask (default: the one serving this data directory)')
    .option('--json', 'print JSON')
    .action(async (opts: { gateway?: string; json?: boolean }) => {
      const url = gatewayUrl(opts.gateway);
      let body: { info?: { executors?: { executors?: ExecutorReport[] } }; error?: { executors?: { executors?: ExecutorReport[] } } };
      try {
        const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5_000) });
        body = (await res.json()) as typeof body;
      } catch (error) {
        throw new UsageError(`the gateway at ${url} did not answer /health: ${String((error as Error).message ?? error)}`);
      }
      // A degraded gateway reports its indicators under `error` as well; executors are listed either way.
      const executors = body.info?.executors?.executors ?? body.error?.executors?.executors ?? [];
      if (opts.json) return printJson(executors);
      if (executors.length === 0) process.stdout.write(`no executor is connected to ${url}\n`);
      for (const e of executors) process.stdout.write(line(e));
    });
}
