import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isolatedStore } from '../support/cli-process';
import { connectMcp, type McpSession } from '../support/mcp-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

/**
 * The agent's view over real stdio: a change accepted through the target tools is on disk before the
 * answer, so the file tools and workspace status tell the same story; and under publish on_save the
 * file tools answer the target's text while status says pending.
 */
describe(`one truth about the disk over MCP stdio on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let dir: string;
  let mcp: McpSession;
  const call = async (name: string, args: Record<string, unknown>) => (await mcp.call(name, args)).result;
  const status = async (path: string) => (await call('palimpsest_workspace_status', { path_prefix: path })).files[0];

  beforeAll(async () => {
    store = await isolatedStore();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-one-truth-'));
    mcp = await connectMcp({ ...store.env, PALIMPSEST_WORKSPACE_ROOT: dir });
  });
  afterAll(async () => {
    await mcp.close();
    await store.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('palimpsest_submit_observed_operations and palimpsest_submit_edits publish: read_file, grep and status agree at once', async () => {
    writeFileSync(join(dir, 'mod.ts'), 'export function alpha() {\n  return 1;\n}\n');
    const id = (await call('palimpsest_initialize_target', { filename: 'mod.ts', from_workspace: true })).target_file_id;
    const observed = await call('palimpsest_observe_scope', { target_file_id: id, symbol_name: 'alpha' });
    const head = await call('palimpsest_get_target', { target_file_id: id });
    const accepted = await call('palimpsest_submit_observed_operations', {
      target_file_id: id, intent: 'two', observation_id: observed.observation_id, operations: [{ op: 'match', match: 'return 1', replace: 'return 2' }],
      expected_target_version: 0, expected_current_hash: head.current_hash,
    });
    expect(accepted).toMatchObject({ status: 'accepted', version: 1, workspace_sync: { synced_path: 'mod.ts' } });
    expect(readFileSync(join(dir, 'mod.ts'), 'utf8')).toBe('export function alpha() {\n  return 2;\n}\n');
    expect(await status('mod.ts')).toMatchObject({ state: 'in_sync', version: 1, disk_version: 1 });
    expect((await call('read_file', { path: 'mod.ts' })).content).toContain('return 2');
    expect((await call('grep', { pattern: 'return \\d' })).matches).toEqual([{ path: 'mod.ts', line: 2, text: '  return 2;' }]);

    expect(await call('palimpsest_submit_edits', { target_file_id: id, intent: 'three', edits: [{ match: 'return 2', replace: 'return 3' }], expected_target_version: 1 })).toMatchObject({ status: 'accepted', version: 2 });
    expect((await call('read_file', { path: 'mod.ts' })).content).toContain('return 3');
    expect(await status('mod.ts')).toMatchObject({ state: 'in_sync', version: 2, disk_version: 2 });
  });

  it('under publish on_save: pending in status, the target text in read_file (said plainly), on disk after the save', async () => {
    writeFileSync(join(dir, 'notes.md'), 'draft\n');
    const id = (await call('palimpsest_initialize_target', { filename: 'notes.md', from_workspace: true, publish: 'on_save' })).target_file_id;
    expect(await call('palimpsest_submit_edits', { target_file_id: id, intent: 'final', edits: [{ match: 'draft', replace: 'final' }], expected_target_version: 0 })).toMatchObject({ status: 'accepted' });
    expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('draft\n');
    expect(await status('notes.md')).toMatchObject({ state: 'pending', version: 1, disk_version: 0, publish: 'on_save' });
    expect(await call('read_file', { path: 'notes.md' })).toMatchObject({ content: 'final\n', pending: { path: 'notes.md', version: 1, disk_version: 0 } });
    expect(await call('palimpsest_save', { target_file_id: id })).toMatchObject({ status: 'saved', workspace_sync: { synced_path: 'notes.md' } });
    expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('final\n');
    expect(await status('notes.md')).toMatchObject({ state: 'in_sync', version: 1, disk_version: 1 });
  });
});
