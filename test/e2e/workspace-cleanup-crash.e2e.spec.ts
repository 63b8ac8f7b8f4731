import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CRASH_POINT_ENV } from '@palimpsest/testing/crash-point';
import { connectMcp } from '../support/mcp-client';
import { callCli, settleKilledClient, strayFiles, crashWorkspace } from '../support/workspace-process';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

/**
 * An edit_file killed (SIGKILL, a real CLI process) after its journal committed and before it removed the
 * replaced file's backup: the edit landed, and a `.palimpsest-…backup` holding the old bytes is left in the
 * directory. The next process removes it at start; no file tool ever lists or searches it.
 */
describe(`a publication killed between its commit and its cleanup, on ${backend}`, () => {
  let dispose: () => Promise<void>;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    ({ dir, env, dispose } = await crashWorkspace('palimpsest-e2e-cleanup-crash-'));
  });
  afterAll(async () => {
    await dispose();
  });

  it('leaves the edit applied and its backup behind; the next start removes the backup, and list_files and grep never show it', async () => {
    writeFileSync(join(dir, 'notes.md'), 'secret-old-marker\nkeep\n');
    const edit = { path: 'notes.md', oldString: 'secret-old-marker', newString: 'new text' };
    const killed = await callCli(env, 'edit_file', edit, { [CRASH_POINT_ENV]: 'publication.before_cleanup' }).catch((e) => e);
    expect(killed.signal).toBe('SIGKILL');
    await settleKilledClient(env);
    expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('new text\nkeep\n');
    const [backup, ...others] = strayFiles(dir);
    expect(others).toEqual([]);
    expect(backup).toMatch(/^\.palimpsest-.*\.backup$/);
    expect(readFileSync(join(dir, backup!), 'utf8')).toBe('secret-old-marker\nkeep\n');

    // A planted copy under the reserved prefix, which no journal names: start-up leaves it, and the tools still never show it.
    writeFileSync(join(dir, '.palimpsest-planted.backup'), 'secret-old-marker\n');
    const mcp = await connectMcp(env);
    try {
      expect(strayFiles(dir)).toEqual(['.palimpsest-planted.backup']);
      const listed = await mcp.call('list_files', { recursive: true });
      expect(listed.result.entries.map((e: any) => e.path)).toEqual(['notes.md']);
      expect((await mcp.call('grep', { pattern: 'secret-old-marker' })).result).toMatchObject({ status: 'ok', matches: [] });
      const status = await mcp.call('palimpsest_workspace_status', {});
      expect(status.result.files.map((f: any) => [f.path, f.state, f.journal])).toEqual([['notes.md', 'in_sync', null]]);
      const again = await mcp.call('edit_file', { path: 'notes.md', oldString: 'keep', newString: 'kept' });
      expect(again.result).toMatchObject({ status: 'ok', version: 2, journal: { state: 'committed' } });
      expect((await mcp.call('palimpsest_replay', { target_file_id: again.result.target_file_id })).result).toMatchObject({ status: 'success', materialized_state_matches: true });
    } finally {
      await mcp.close();
    }
    expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('new text\nkept\n');
  });
});
