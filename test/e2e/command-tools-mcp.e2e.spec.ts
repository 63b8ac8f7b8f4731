import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectPublishedResult } from '@palimpsest/application/file-tools/test-support/published-result';
import { isolatedStore, runCli } from '../support/cli-process';
import { connectMcp } from '../support/mcp-client';
import { running } from '@palimpsest/workspace/test-support/process-watch';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

describe(`the command tools over real MCP stdio on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    store = await isolatedStore();
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'palimpsest-e2e-commands-')));
    env = { ...store.env, PALIMPSEST_WORKSPACE_ROOT: dir };
    expect((await runCli(['migrate'], { env })).code).toBe(0);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await store.dispose();
  });

  it('the files profile runs node --version, and a start, read, kill cycle; the service stopping kills what is left', async () => {
    const mcp = await connectMcp(env, ['--profile', 'files']);
    let leftPid = 0;
    try {
      const { tools } = await mcp.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['run_command', 'start_command', 'get_command_output', 'send_command_input', 'kill_command']));
      const ran = await mcp.call('run_command', { command: 'node --version' });
      expect(ran.result).toMatchObject({ status: 'ok', exitCode: 0, stdout: `${process.version}\n`, timedOut: false });
      const pwd = await mcp.call('run_command', { command: 'pwd' });
      expect(pwd.result).toMatchObject({ status: 'ok', stdout: `${dir}\n` });
      const started = await mcp.call('start_command', { command: 'node -i' });
      expect(started.result).toMatchObject({ status: 'ok', command: 'node -i' });
      const id = started.result.processId as string;
      expect((await mcp.call('send_command_input', { processId: id, data: '6*7' })).result).toMatchObject({ status: 'ok', bytesWritten: 4 });
      let cursor = 0;
      let seen = '';
      while (!seen.includes('42')) {
        const read = await mcp.call('get_command_output', { processId: id, cursor, waitMs: 5000 });
        expectPublishedResult('get_command_output', read.result);
        expect(read.result.running).toBe(true);
        seen += read.result.chunk;
        cursor = read.result.nextCursor;
      }
      const killed = await mcp.call('kill_command', { processId: id });
      expect(killed.result).toMatchObject({ status: 'ok', processId: id, killed: true });
      expect(running(started.result.pid)).toBe(false);
      const refused = await mcp.call('run_command', { command: 'touch a && touch b' });
      expect(refused.isError).toBe(true);
      expect(refused.result).toMatchObject({ code: 'FORBIDDEN', answer: 'FORBIDDEN' });
      const left = await mcp.call('start_command', { command: 'sleep 100' });
      leftPid = left.result.pid;
      expect(running(leftPid)).toBe(true);
      for (const [name, r] of [['run_command', ran], ['start_command', started], ['kill_command', killed], ['run_command', refused]] as const) expectPublishedResult(name, r.result);
    } finally {
      await mcp.close();
    }
    const until = Date.now() + 10_000;
    while (running(leftPid) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(running(leftPid)).toBe(false);
  });

  it('the read-only profile lists no tool that runs a command', async () => {
    const mcp = await connectMcp(env, ['--profile', 'read-only']);
    try {
      const names = (await mcp.client.listTools()).tools.map((t) => t.name);
      for (const tool of ['run_command', 'start_command', 'send_command_input', 'kill_command']) expect(names).not.toContain(tool);
      const refused = await mcp.call('run_command', { command: 'node --version' });
      expect(refused.isError).toBe(true);
    } finally {
      await mcp.close();
    }
  });
});
