import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isolatedStore, runCli } from '../support/cli-process';
import { callCli, sha256 } from '../support/workspace-process';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

describe(`palimpsest CLI imports a workspace file on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let dir: string;
  const bytes = Buffer.from('# Title\r\nbody 😀\r\n');

  beforeAll(async () => {
    store = await isolatedStore();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-import-'));
    writeFileSync(join(dir, 'a.md'), bytes);
    symlinkSync(join(dir, 'a.md'), join(dir, 'link.md'));
    expect((await runCli(['migrate'], { env: store.env })).code).toBe(0);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await store.dispose();
  });

  const call = (operation: string, args: unknown, root: string | null = dir) =>
    callCli({ ...store.env, PALIMPSEST_WORKSPACE_ROOT: root ?? '' }, operation, args);

  it('imports the file, shows the binding, replays and rebuilds equal', async () => {
    const created = await call('palimpsest_initialize_target', { filename: 'a.md', from_workspace: true });
    expect(created.code).toBe(0);
    const sha = sha256(bytes);
    expect(created.json).toMatchObject({
      status: 'ok', filename: 'a.md', version: 0,
      source_line_endings: { style: 'crlf', crlf: 2, source_utf8_bytes: bytes.length, source_sha256: sha },
      workspace: { path: 'a.md', source_sha256: sha },
    });
    const id = created.json.target_file_id;
    const got = await call('palimpsest_get_target', { target_file_id: id });
    expect(got.json).toMatchObject({ current_content: '# Title\nbody 😀\n', workspace: { path: 'a.md', source_sha256: sha } });
    const replay = await runCli(['replay', id], { env: store.env });
    expect(JSON.parse(replay.stdout)).toMatchObject({ status: 'success', materialized_state_matches: true });
    const rebuild = await runCli(['projections', 'rebuild', '--no-progress'], { env: store.env });
    expect(JSON.parse(rebuild.stdout)).toMatchObject({ equal: true, compared: 1 });
  });

  it('refuses a symlink, content beside from_workspace, and a process without a workspace', async () => {
    expect((await call('palimpsest_initialize_target', { filename: 'link.md', from_workspace: true })).json).toMatchObject({
      status: 'invalid_argument', code: 'PATH_SYMLINK',
    });
    expect((await call('palimpsest_initialize_target', { filename: 'a.md', from_workspace: true, content: 'x' })).json).toMatchObject({
      status: 'invalid_argument', code: 'content_conflicts_with_workspace',
    });
    expect((await call('palimpsest_initialize_target', { filename: 'a.md', from_workspace: true }, null)).json).toMatchObject({
      status: 'invalid_argument', code: 'workspace_not_configured',
    });
  });
});
