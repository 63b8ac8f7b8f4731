import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isolatedStore, runCli } from '../support/cli-process';
import { callCli, sha256 } from '../support/workspace-process';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

describe(`palimpsest workspace status and refresh over the real CLI on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    store = await isolatedStore();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-status-'));
    env = { ...store.env, PALIMPSEST_WORKSPACE_ROOT: dir };
    expect((await runCli(['migrate'], { env })).code).toBe(0);
    for (const path of ['kept.md', 'edited.md']) {
      writeFileSync(join(dir, path), `${path}\n`);
      ids[path] = (await callCli(env, 'palimpsest_initialize_target', { filename: path, from_workspace: true })).json.target_file_id;
    }
    writeFileSync(join(dir, 'edited.md'), 'changed by an editor\n');
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await store.dispose();
  });

  it('prints the bound files as a table', async () => {
    const r = await runCli(['workspace', 'status'], { env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]!.split(/\s+/)).toEqual(['PATH', 'STATE', 'VERSION', 'TARGET', 'JOURNAL']);
    expect(lines.slice(1).map((l) => l.split(/\s+/))).toEqual([
      ['edited.md', 'drifted', '0', ids['edited.md'], '-'],
      ['kept.md', 'in_sync', '0', ids['kept.md'], '-'],
    ]);
  });

  it('prints the answer with --json, filtered by state and path prefix', async () => {
    const r = await runCli(['workspace', 'status', '--json', '--state', 'drifted'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: 'ok', root: { path: dir }, total: 2,
      files: [{ path: 'edited.md', state: 'drifted', target_file_id: ids['edited.md'], observed_sha256: sha256('changed by an editor\n') }],
    });
    const prefixed = JSON.parse((await runCli(['workspace', 'status', '--json', '--path-prefix', 'kept'], { env })).stdout);
    expect(prefixed).toMatchObject({ total: 1, files: [{ path: 'kept.md', state: 'in_sync' }] });
  });

  it('refreshes the edited file, after which every file is in sync', async () => {
    const r = await runCli(['workspace', 'refresh', ids['edited.md']!], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'refreshed', version: 1, disk_sha256: sha256('changed by an editor\n') });
    const status = JSON.parse((await runCli(['workspace', 'status', '--json'], { env })).stdout);
    expect(status.files.map((f: { state: string }) => f.state)).toEqual(['in_sync', 'in_sync']);
    const log = JSON.parse((await runCli(['call', 'palimpsest_get_attempt_log', '--args', JSON.stringify({ target_file_id: ids['edited.md'] })], { env })).stdout);
    expect(log.entries[0]).toMatchObject({ status: 'accepted', source: 'external_disk' });
  });

  it('exits 2 on a usage error and on a refused call', async () => {
    expect((await runCli(['workspace', 'status', '--state', 'bogus'], { env })).code).toBe(2);
    expect((await runCli(['workspace', 'refresh'], { env })).code).toBe(2);
    const bare = await runCli(['workspace', 'status'], { env: { ...env, PALIMPSEST_WORKSPACE_ROOT: '' } });
    expect(bare.code).toBe(2);
    expect(JSON.parse(bare.stdout)).toMatchObject({ status: 'invalid_argument', code: 'workspace_not_configured' });
  });
});
