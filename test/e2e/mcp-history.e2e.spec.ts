import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectPublishedResult } from '@palimpsest/application/file-tools/test-support/published-result';
import { isolatedStore, runCli } from '../support/cli-process';
import { connectMcp } from '../support/mcp-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

describe(`a file's history over real MCP stdio on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    store = await isolatedStore();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-history-'));
    writeFileSync(join(dir, 'app.ts'), 'export const a = 1;\r\nexport const b = 2;\r\n');
    env = { ...store.env, PALIMPSEST_WORKSPACE_ROOT: dir };
    expect((await runCli(['migrate'], { env })).code).toBe(0);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await store.dispose();
  });

  it('reads a file as of each version its history lists, in the bytes it held then', async () => {
    const mcp = await connectMcp(env);
    try {
      const first = await mcp.call('edit_file', { path: 'app.ts', oldString: 'a = 1', newString: 'a = 10' });
      expect(first.result).toMatchObject({ status: 'ok', version: 1 });
      const second = await mcp.call('edit_file', { path: 'app.ts', oldString: 'b = 2', newString: 'b = 20' });
      expect(second.result).toMatchObject({ status: 'ok', version: 2 });
      const history = await mcp.call('palimpsest_file_history', { path: 'app.ts' });
      expect(history.result.versions.map((v: any) => [v.version, v.source])).toEqual([[2, 'agent'], [1, 'agent'], [0, 'created']]);
      const contents = ['export const a = 1;\r\nexport const b = 2;\r\n', 'export const a = 10;\r\nexport const b = 2;\r\n', 'export const a = 10;\r\nexport const b = 20;\r\n'];
      for (const v of [0, 1, 2]) {
        const read = await mcp.call('read_file', { path: 'app.ts', as_of: { version: v } });
        expect(read.isError).toBeFalsy();
        expectPublishedResult('read_file', read.result);
        expect(read.result).toMatchObject({ status: 'ok', path: 'app.ts', content: contents[v], as_of: { version: v, target_file_id: first.result.target_file_id } });
      }
      const byPosition = await mcp.call('read_file', { path: 'app.ts', as_of: { position: history.result.versions[1].log_sequence } });
      expect(byPosition.result).toMatchObject({ content: contents[1], as_of: { version: 1 } });
      const ahead = await mcp.call('read_file', { path: 'app.ts', as_of: { version: 9 } });
      expect(ahead.isError).toBe(true);
      expect(ahead.result).toMatchObject({ status: 'invalid_argument', code: 'as_of_out_of_range' });
    } finally {
      await mcp.close();
    }
  });
});
