import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isOperationName } from '@palimpsest/protocol/catalog/catalog';
import { FILES_PROFILE_TOOLS } from '@palimpsest/core/policy/owner-policy';
import { expectPublishedResult } from '@palimpsest/application/file-tools/test-support/published-result';
import { isolatedStore, runCli } from '../support/cli-process';
import { connectMcp } from '../support/mcp-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const MAIN_TS = 'export function main() {\r\n  return 1;\r\n}\r\n';

describe(`the file read tools and the files profile over real MCP stdio on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    store = await isolatedStore();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-files-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src/main.ts'), MAIN_TS);
    writeFileSync(join(dir, 'evil.txt'), `${'a'.repeat(40)}!\n`);
    env = { ...store.env, PALIMPSEST_WORKSPACE_ROOT: dir };
    expect((await runCli(['migrate'], { env })).code).toBe(0);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await store.dispose();
  });

  it('--profile files advertises exactly the profile tools the catalog has, and refuses any other', async () => {
    const mcp = await connectMcp(env, ['--profile', 'files']);
    try {
      const { tools } = await mcp.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(FILES_PROFILE_TOOLS.filter(isOperationName).sort());
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['grep', 'list_files', 'read_file']));
      const refused = await mcp.call('palimpsest_initialize_target', { filename: 'x', content: 'y\n' });
      expect(refused.isError).toBe(true);
      expect(refused.result.status).not.toBe('ok');
      expect(refused.result.code).toMatch(/not_permitted|FORBIDDEN/);
    } finally {
      await mcp.close();
    }
  });

  it('answers read_file, list_files and grep with the seed fields, validated by the published schemas', async () => {
    const mcp = await connectMcp(env, ['--profile', 'files']);
    try {
      const read = await mcp.call('read_file', { path: 'src/main.ts', offset: 2, limit: 1 });
      expect(read.result).toEqual({ status: 'ok', path: 'src/main.ts', content: '  return 1;\r\n', truncated: true, totalLines: 3 });
      const list = await mcp.call('list_files', { recursive: true, glob: '**/*.ts' });
      expect(list.result).toEqual({ status: 'ok', path: '.', entries: [{ path: 'src/main.ts', type: 'file', size: Buffer.byteLength(MAIN_TS) }], truncated: false });
      const found = await mcp.call('grep', { pattern: 'RETURN', caseInsensitive: true });
      expect(found.result).toEqual({ status: 'ok', matches: [{ path: 'src/main.ts', line: 2, text: '  return 1;' }], truncated: false });
      const wrong = await mcp.call('read_file', { path: 7 });
      expect(wrong.isError).toBe(true);
      expect(wrong.result.status).toBe('invalid_argument');
      for (const [name, r] of [['read_file', read], ['list_files', list], ['grep', found], ['read_file', wrong]] as const) expectPublishedResult(name, r.result);
    } finally {
      await mcp.close();
    }
  });

  it('a hostile pattern answers TOOL_TIMEOUT within about a second while a read on the same server answers at once', async () => {
    const mcp = await connectMcp(env, ['--profile', 'read-only']);
    try {
      const names = (await mcp.client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['grep', 'list_files', 'read_file']));
      const started = Date.now();
      const slow = mcp.call('grep', { pattern: '(a+)+$' }).then((r) => ({ r, ms: Date.now() - started }));
      await new Promise((resolve) => setTimeout(resolve, 150));
      const readStarted = Date.now();
      expect((await mcp.call('read_file', { path: 'evil.txt' })).result.status).toBe('ok');
      expect(Date.now() - readStarted).toBeLessThan(200);
      const { r, ms } = await slow;
      expect(r.result).toMatchObject({ status: 'invalid_argument', code: 'TOOL_TIMEOUT' });
      expect(ms).toBeLessThan(1500);
    } finally {
      await mcp.close();
    }
  });
});
