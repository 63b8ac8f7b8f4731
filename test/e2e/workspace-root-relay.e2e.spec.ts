import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { readGatewayAddress } from '@palimpsest/api/lifecycle/gateway-address';
import { REPO_ROOT, runCli } from '../support/cli-process';
import { startApi, type ApiProcess } from '../support/http-server';
import { connectMcp, type McpSession } from '../support/mcp-client';

/**
 * One workspace root, said aloud: the gateway prints the root it works on and publishes it beside its
 * address; a command relayed through it that was given another root refuses at start, naming both; a
 * tool without a root says which process to configure. Embedded on purpose: only an embedded store is
 * held by one gateway that commands go through.
 */
describe('the workspace root of a gateway and of the commands relayed to it', () => {
  let tmp: string;
  let project: string;
  let other: string;
  const sessions: McpSession[] = [];
  const started: ApiProcess[] = [];
  const gateway = async (env: NodeJS.ProcessEnv, args: string[]) => {
    const api = await startApi(env, ['--no-local-token', ...args]);
    started.push(api);
    return api;
  };

  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'palimpsest-root-'));
    project = join(tmp, 'project');
    other = join(tmp, 'other');
    mkdirSync(project);
    mkdirSync(other);
    writeFileSync(join(project, 'notes.md'), 'from the project\n');
    writeFileSync(join(tmp, 'policy.yaml'), 'profiles:\n  careful: { mode: allow_all, approve: true }\n');
  });
  afterAll(async () => {
    await Promise.allSettled(sessions.map((s) => s.close()));
    await Promise.allSettled(started.map((api) => api.stop()));
    rmSync(tmp, { recursive: true, force: true });
  });

  describe('a gateway given --workspace (relative to its working directory)', () => {
    let env: NodeJS.ProcessEnv;
    let api: ApiProcess;
    beforeAll(async () => {
      env = { DATABASE_URL: '', PALIMPSEST_DATA_DIR: join(tmp, 'data'), PALIMPSEST_WORKSPACE_ROOT: other, PALIMPSEST_POLICY_FILE: join(tmp, 'policy.yaml') };
      api = await gateway(env, ['--workspace', relative(REPO_ROOT, project)]); // the option wins over the environment
    });

    it('prints its root and its policy at start, and publishes the root beside its address', () => {
      expect(api.stderr()).toContain(`palimpsest api workspace root: ${project}\n`);
      expect(api.stderr()).toContain(`palimpsest api policy: ${join(tmp, 'policy.yaml')}, profiles full, read-only, files, careful (approve)\n`);
      expect(readGatewayAddress(env.PALIMPSEST_DATA_DIR!)?.workspace_root).toBe(project);
    });

    it('a relayed mcp given another root refuses at start, naming both roots; a store command likewise', async () => {
      const refused = await runCli(['mcp', '--workspace', other], { env: { ...env, PALIMPSEST_WORKSPACE_ROOT: '' } });
      expect(refused.code).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(`works on the workspace root ${project}, but this command was given ${other}`);
      expect(refused.stderr).toContain(`palimpsest api --workspace ${other}`);

      const call = await runCli(['call', 'read_file', '--args', '{"path":"notes.md"}'], { env });
      expect(call.code).toBe(2);
      expect(call.stderr).toContain(`but this command was given ${other} (--workspace or PALIMPSEST_WORKSPACE_ROOT)`);
    });

    it('a relayed mcp given the same root (another spelling) or none works on the gateway\'s files', async () => {
      for (const args of [['--workspace', `${project}/`], []]) {
        const mcp = await connectMcp({ ...env, PALIMPSEST_WORKSPACE_ROOT: '' }, args);
        sessions.push(mcp);
        expect(await mcp.call('read_file', { path: 'notes.md' })).toMatchObject({ isError: false, result: { status: 'ok' } });
        expect((await mcp.call('read_file', { path: 'notes.md' })).text).toContain('from the project');
      }
    });
  });

  it('a gateway without a root says so at start, and its tools name it as the process to configure', async () => {
    const env = { DATABASE_URL: '', PALIMPSEST_DATA_DIR: join(tmp, 'bare'), PALIMPSEST_WORKSPACE_ROOT: '' };
    const api = await gateway(env, []);
    expect(api.stderr()).toContain('palimpsest api workspace root: none (the file tools answer workspace_not_configured; start with `palimpsest api --workspace <dir>`)');
    expect(api.stderr()).toContain('palimpsest api policy: built-in profiles full, read-only, files\n');
    const mcp = await connectMcp(env);
    sessions.push(mcp);
    const answer = await mcp.call('read_file', { path: 'notes.md' });
    expect(answer.result).toMatchObject({ code: 'workspace_not_configured' });
    expect(answer.result.failure_detail).toContain(`this palimpsest api (pid ${readGatewayAddress(env.PALIMPSEST_DATA_DIR)!.pid}) has no workspace root: restart it as \`palimpsest api --workspace <dir>\``);
  });
});
