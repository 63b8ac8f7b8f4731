import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI_BIN, REPO_ROOT, isolatedStore, runCli } from '../support/cli-process';
import { running } from '@palimpsest/workspace/test-support/process-watch';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

const childrenOf = (pid: number): number[] => {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').map((l) => Number(l.trim())).filter((n) => n > 0);
  } catch {
    return [];
  }
};

const descendantsOf = (pid: number): number[] => childrenOf(pid).flatMap((child) => [child, ...descendantsOf(child)]);

async function waitFor(check: () => boolean, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** `palimpsest mcp` over real stdio, with its pid and everything it writes to stderr. */
async function startMcp(env: NodeJS.ProcessEnv) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, 'mcp', '--profile', 'files'],
    cwd: REPO_ROOT,
    env: { ...(process.env as Record<string, string>), ...(env as Record<string, string>) },
    stderr: 'pipe',
  });
  let log = '';
  transport.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  const client = new Client({ name: 'palimpsest-e2e', version: '1.0.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })).structuredContent as Record<string, any>;
  return { client, call, pid: transport.pid!, log: () => log };
}

describe(`commands when the service is killed (SIGKILL) while they run, on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    store = await isolatedStore();
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'palimpsest-e2e-command-crash-')));
    env = { ...store.env, PALIMPSEST_WORKSPACE_ROOT: dir, PALIMPSEST_COMMAND_SPAWNER: '0' };
    expect((await runCli(['migrate'], { env })).code).toBe(0);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await store.dispose();
  });

  it('forked by the service itself: no orphan survives the restart, and the restart says what happened to each run', async () => {
    const first = await startMcp(env);
    expect(await first.call('run_command', { command: 'node --version' })).toMatchObject({ status: 'ok', exitCode: 0 });
    const a = await first.call('start_command', { command: 'sleep 100' });
    const b = await first.call('start_command', { command: 'node -i' });
    void first.call('run_command', { command: 'sleep 200', timeoutMs: 300000 }).catch(() => undefined);
    await waitFor(() => childrenOf(first.pid).length === 3);
    const orphans = childrenOf(first.pid);
    expect(orphans).toEqual(expect.arrayContaining([a.pid, b.pid]));
    process.kill(first.pid, 'SIGKILL');
    await waitFor(() => !running(first.pid));
    await first.client.close().catch(() => undefined);
    // A SIGKILLed service stops nothing itself: the sleeps outlive it (the REPL may end on its closed stdin).
    expect(running(a.pid)).toBe(true);
    expect(orphans.filter(running).length).toBeGreaterThanOrEqual(2);

    const second = await startMcp(env);
    try {
      for (const pid of orphans) expect(running(pid)).toBe(false);
      const lines = second.log().split('\n').filter((l) => l.includes('was running when the service stopped'));
      expect(lines).toHaveLength(3);
      for (const command of ['sleep 100', 'sleep 200']) expect(lines.some((l) => l.includes(JSON.stringify(command)) && /outcome unknown at crash; its process group \d+ was (terminated|killed)/.test(l))).toBe(true);
      expect(lines.some((l) => l.includes('"node -i"') && /outcome unknown at crash; (its processes were already gone|its process group \d+ was)/.test(l))).toBe(true);
      expect(second.log()).not.toContain('node --version');
    } finally {
      await second.client.close();
    }
    // Settled once: a third start finds nothing left to settle.
    const third = await startMcp(env);
    await third.client.close();
    expect(third.log()).not.toContain('was running when the service stopped');
  });
  it('forked by the spawner (the default): the commands die with the service, and the restart settles each run', async () => {
    const spawnerEnv = { ...env, PALIMPSEST_COMMAND_SPAWNER: '' };
    const first = await startMcp(spawnerEnv);
    const a = await first.call('start_command', { command: 'sleep 100' });
    const b = await first.call('start_command', { command: 'sleep 150' });
    void first.call('run_command', { command: 'sleep 200', timeoutMs: 300000 }).catch(() => undefined);
    await waitFor(() => descendantsOf(first.pid).length === 4); // the spawner and its three commands
    const commands = descendantsOf(first.pid).filter((pid) => !childrenOf(first.pid).includes(pid));
    expect(commands).toEqual(expect.arrayContaining([a.pid, b.pid]));
    process.kill(first.pid, 'SIGKILL');
    await first.client.close().catch(() => undefined);
    // No restart needed: the spawner sees its service's channel close and kills every group it started.
    await waitFor(() => commands.every((pid) => !running(pid)));

    const second = await startMcp(spawnerEnv);
    try {
      const lines = second.log().split('\n').filter((l) => l.includes('was running when the service stopped'));
      expect(lines).toHaveLength(3);
      for (const command of ['sleep 100', 'sleep 150', 'sleep 200']) {
        expect(lines.some((l) => l.includes(JSON.stringify(command)) && l.includes('outcome unknown at crash; its processes were already gone'))).toBe(true);
      }
    } finally {
      await second.client.close();
    }
  });
});
