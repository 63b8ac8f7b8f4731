import { arch, platform } from 'node:os';
import type { Command } from 'commander';
import { EXECUTOR_CONNECT_PATH } from '@palimpsest/api/executors/executor-link-config';
import { EXECUTOR_PROTOCOL_VERSION } from '@palimpsest/protocol/executor/executor-protocol';
import { VERSION } from '../cli-errors';
import { cliEnv } from '../cli-config';
import { ExecutorClient } from './connect-link';
import { attachPolicies, connectUrl, parseProjects } from './connect-projects';
import { LocalExecutor } from './connect-executor';
import { EXECUTOR_TOOL_NAMES } from '@palimpsest/protocol/executor/executor-messages';

interface ConnectOptions {
  gateway: string;
  token?: string;
  project: string[];
  policy: string[];
}

const say = (line: string) => process.stderr.write(`palimpsest connect: ${line}\n`);

/** `palimpsest connect`: this machine, as an executor of a gateway, for the named project directories (docs/executors.md). */
export function registerConnect(program: Command): void {
  program
    .command('connect')
    .description('Connect this machine to a gateway as an executor for named project directories (an outbound WebSocket; docs/executors.md)')
    .requiredOption('--gateway <url>', 'the gateway, e.g. http://127.0.0.1:3000 (https, ws and wss too)')
    .option('--token <token>', 'a token with the executor scope (env PALIMPSEST_EXECUTOR_TOKEN)')
    .option('--project <name=dir>', 'a project: its name and its directory; repeat for more', (value: string, list: string[]) => [...list, value], [])
    .option('--policy <name=file>', 'a project\'s local policy (JSON, the protocol\'s localCommandPolicy): it narrows the gateway\'s', (value: string, list: string[]) => [...list, value], [])
    .action(async (opts: ConnectOptions) => {
      const env = cliEnv();
      const token = opts.token ?? env.PALIMPSEST_EXECUTOR_TOKEN ?? null;
      if (token === null) say('no token (--token or PALIMPSEST_EXECUTOR_TOKEN): only a gateway started with --no-auth lets this in');
      const url = connectUrl(opts.gateway, EXECUTOR_CONNECT_PATH);
      const parsed = parseProjects(opts.project, process.cwd());
      const { deviceId } = parsed;
      const projects = attachPolicies(parsed.projects, opts.policy, process.cwd());
      const executor = await LocalExecutor.start(projects, env, say);
      const client = new ExecutorClient(
        url,
        token,
        {
          type: 'hello',
          protocolVersion: EXECUTOR_PROTOCOL_VERSION,
          deviceId,
          cliVersion: VERSION,
          platform: `${platform()}-${arch()}`,
          projects: projects.map(({ id, slug }) => ({ id, slug })),
          capabilities: { prompt: false, tools: [...EXECUTOR_TOOL_NAMES] },
        },
        say,
        executor,
      );
      for (const p of projects) say(`project ${p.slug} (${p.id}): ${p.root}`);
      const stop = (signal: NodeJS.Signals) => {
        say(`${signal}: closing the link`);
        client.stop();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      const refused = await client.run();
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      await executor.close();
      if (refused !== null) throw new Error(`the gateway refused this executor: ${refused}`);
      say('stopped');
    });
}
