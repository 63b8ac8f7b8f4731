import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectHttp, connectMcp, structuredAnswer, type McpSession } from '../support/mcp-client';
import { startApi, type ApiProcess } from '../support/http-server';

/**
 * An agent on its own project, started the natural way: the project is the working directory and the
 * workspace root, nothing configures a data directory, so the embedded store lands in
 * `<project>/.palimpsest/`. No tool reveals or touches it, over MCP stdio (`palimpsest mcp --profile
 * files`) and over the gateway's /mcp (`palimpsest api`, whose gateway file holds a full-scope token).
 * Embedded on purpose, on either run: the default data directory is what is under test.
 */
const EMBEDDED = { DATABASE_URL: '', PALIMPSEST_DATA_DIR: '', PALIMPSEST_POLICY_FILE: '' };
const PROJECT_FILES = ['.gitignore', 'README.md', 'package.json', 'src', 'src/index.ts'];

function gitProject(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n');
  writeFileSync(join(dir, 'README.md'), '# demo\n');
  writeFileSync(join(dir, 'package.json'), '{ "name": "demo", "version": "1.0.0" }\n');
  writeFileSync(join(dir, 'src/index.ts'), 'export const answer = 41;\n');
  execFileSync('git', ['init', '-q'], { cwd: dir });
  return dir;
}

/** The spellings of one path an agent may send: as is, `./`, a doubled slash, climbed back into. */
const spellings = (path: string) => [path, `./${path}`, path.replace('/', '//'), `src/../${path}`];

type Call = (name: string, args: Record<string, unknown>) => Promise<Record<string, any>>;

/** The agent's session on the project: what it can see and do, and what it cannot reach. */
async function agentSession(call: Call, project: string, reserved: string[]): Promise<void> {
  const names = (r: Record<string, any>) => r.entries.map((e: { path: string }) => e.path);
  expect(names(await call('list_files', { recursive: true }))).toEqual(PROJECT_FILES);
  expect(names(await call('list_files', {}))).toEqual(['.git', ...PROJECT_FILES.filter((p) => !p.includes('/'))]);
  expect(names(await call('list_files', { path: './src/' }))).toEqual(['src/index.ts']);

  const before = new Map(reserved.map((p) => [p, readFileSync(join(project, p))]));
  for (const path of reserved.flatMap(spellings)) {
    for (const [tool, args] of [
      ['read_file', { path }],
      ['list_files', { path }],
      ['grep', { pattern: '.', path }],
      ['edit_file', { path, oldString: '1', newString: '2' }],
      ['write_file', { path, content: 'taken\n' }],
    ] as const) {
      expect({ tool, path, answer: await call(tool, args) }).toMatchObject({ tool, path, answer: { code: 'PATH_RESERVED', next_actions: [{ operation: 'list_files' }] } });
    }
  }
  for (const path of ['.palimpsest/data/planted', '.palimpsest/new.json', '.git/hooks/pre-commit']) {
    expect(await call('write_file', { path, content: 'planted\n' })).toMatchObject({ code: 'PATH_RESERVED' });
    expect(existsSync(join(project, path))).toBe(false);
  }
  for (const [path, bytes] of before) expect(readFileSync(join(project, path)).equals(bytes)).toBe(true);
  // postgresql.conf and the gateway file are full of these; the project holds none of them.
  expect(await call('grep', { pattern: 'max_connections|shared_buffers|pal_[A-Za-z0-9]' })).toMatchObject({ status: 'ok', matches: [] });

  expect(await call('read_file', { path: './src/index.ts' })).toMatchObject({ status: 'ok', path: 'src/index.ts' });
  expect(await call('edit_file', { path: 'src//index.ts', oldString: '41', newString: '42' })).toMatchObject({ status: 'ok', path: 'src/index.ts' });
  expect(readFileSync(join(project, 'src/index.ts'), 'utf8')).toBe('export const answer = 42;\n');
  expect(await call('read_file', { path: '../outside' })).toMatchObject({ code: 'PATH_ESCAPE' });
}

/** The store's directory is ignored by the project's git: nothing under it is ever untracked. */
function expectIgnoredByGit(project: string): void {
  expect(readFileSync(join(project, '.palimpsest/.gitignore'), 'utf8').split('\n')).toContain('*');
  const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: project, encoding: 'utf8' });
  expect(status).toContain('src/index.ts');
  expect(status).not.toContain('.palimpsest');
}

describe('an agent on its own project never reaches what Palimpsest keeps there', () => {
  describe('over MCP stdio (palimpsest mcp --profile files)', () => {
    let project: string;
    let mcp: McpSession | undefined;
    beforeAll(async () => {
      project = gitProject('palimpsest-e2e-own-stdio-');
      mcp = await connectMcp({ ...EMBEDDED, PALIMPSEST_WORKSPACE_ROOT: project }, ['--profile', 'files'], project);
    });
    afterAll(async () => {
      await mcp?.close();
      rmSync(project, { recursive: true, force: true });
    });

    it('lists, reads, greps and edits the project, and never the store beside it', async () => {
      expect(existsSync(join(project, '.palimpsest/data/PG_VERSION'))).toBe(true);
      const call: Call = async (name, args) => (await mcp!.call(name, args)).result;
      await agentSession(call, project, ['.palimpsest/data/PG_VERSION', '.palimpsest/data.lock', '.palimpsest/.gitignore']);
      expectIgnoredByGit(project);
    });
  });

  describe('over the gateway (palimpsest api, MCP at /mcp)', () => {
    let project: string;
    let api: ApiProcess | undefined;
    let client: Client | undefined;
    beforeAll(async () => {
      project = gitProject('palimpsest-e2e-own-http-');
      api = await startApi({ ...EMBEDDED, PALIMPSEST_WORKSPACE_ROOT: project }, [], project);
      ({ client } = await connectHttp(api.url, api.localToken));
    });
    afterAll(async () => {
      await client?.close();
      expect((await api?.stop())?.code).toBe(0);
      rmSync(project, { recursive: true, force: true });
    });

    it('never hands the gateway credential to a tool, in any spelling, nor lets one plant or bind a file there', async () => {
      const gateway = JSON.parse(readFileSync(join(project, '.palimpsest/data.gateway.json'), 'utf8')) as { token: string };
      expect(gateway.token).toMatch(/^pal_/);
      const answers: string[] = [];
      const call: Call = async (name, args) => {
        const answer = await structuredAnswer(client!, name, args);
        answers.push(JSON.stringify(answer));
        return answer;
      };
      await agentSession(call, project, ['.palimpsest/data.gateway.json', '.palimpsest/data/PG_VERSION', '.palimpsest/data.lock']);
      for (const filename of spellings('.palimpsest/data.gateway.json')) {
        expect(await call('palimpsest_initialize_target', { filename, from_workspace: true })).toMatchObject({ code: 'PATH_RESERVED' });
      }
      expect(await call('grep', { pattern: gateway.token })).toMatchObject({ matches: [] });
      const rest = await fetch(`${api!.url}/v1/files/content?path=${encodeURIComponent('./.palimpsest/data.gateway.json')}`, { headers: { authorization: `Bearer ${api!.localToken}` } });
      const restText = await rest.text();
      expect(rest.status).toBe(400);
      expect(JSON.parse(restText)).toMatchObject({ code: 'PATH_RESERVED' });
      answers.push(restText);
      for (const text of answers) expect(text).not.toContain(gateway.token);
      expectIgnoredByGit(project);
    });
  });
});
