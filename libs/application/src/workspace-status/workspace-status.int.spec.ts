import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { openWorkspaceRoot, type WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { type AppContext } from '../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

describe(`palimpsest_workspace_status on ${describeBackend}`, () => {
  let testDb: TestDb;
  let dir: string;
  let root: WorkspaceRoot;
  let ctx: AppContext;
  const ids: Record<string, string> = {};
  const call = (name: string, args: unknown, c: AppContext = ctx) => dispatch(c, name, args) as Promise<Record<string, any>>;
  const byPath = (files: { path: string }[]) => Object.fromEntries(files.map((f) => [f.path, f]));

  beforeAll(async () => {
    testDb = await createTestDb();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-status-'));
    mkdirSync(join(dir, 'docs'));
    mkdirSync(join(dir, 'outside'));
    root = openWorkspaceRoot(dir);
    ctx = appContext(testDb.db, { workspace: root });
    for (const path of ['docs/a.md', 'docs/b.md', 'gone.md', 'linked.md', 'pending.md', 'same.md']) {
      writeFileSync(join(dir, path), `${path}\n`);
      ids[path] = (await call('palimpsest_initialize_target', { filename: path, from_workspace: true })).target_file_id;
    }
    await call('palimpsest_initialize_target', { filename: 'inline.md', content: 'not bound\n' });
    writeFileSync(join(dir, 'docs/b.md'), 'edited elsewhere\n');
    rmSync(join(dir, 'gone.md'));
    rmSync(join(dir, 'linked.md'));
    writeFileSync(join(dir, 'outside', 'linked.md'), 'linked.md\n');
    symlinkSync(join(dir, 'outside', 'linked.md'), join(dir, 'linked.md'));
    await testDb.db.query(`UPDATE workspace_files SET open_journal_id = $2, journal_state = 'started' WHERE target_id = $1`, [ids['pending.md'], randomUUID()]);
  });
  afterAll(async () => {
    root.close();
    rmSync(dir, { recursive: true, force: true });
    await testDb.dispose();
  });

  it('reports each bound file: in_sync, drifted, missing, pending with its journal, unreachable with the path refusal', async () => {
    const r = await call('palimpsest_workspace_status', {});
    expect(r).toMatchObject({ status: 'ok', root: { path: dir, dev: root.dev, ino: root.ino }, total: 6, truncated: false, next_cursor: null });
    expect(r.files.map((f: { path: string }) => f.path)).toEqual(['docs/a.md', 'docs/b.md', 'gone.md', 'linked.md', 'pending.md', 'same.md']);
    const files = byPath(r.files);
    expect(files['docs/a.md']).toEqual({
      path: 'docs/a.md', target_file_id: ids['docs/a.md'], version: 0, disk_version: 0, publish: 'on_accept', state: 'in_sync',
      disk_sha256: sha256('docs/a.md\n'), observed_sha256: sha256('docs/a.md\n'), journal: null,
    });
    expect(files['docs/b.md']).toMatchObject({ state: 'drifted', disk_sha256: sha256('docs/b.md\n'), observed_sha256: sha256('edited elsewhere\n') });
    expect(files['gone.md']).toMatchObject({ state: 'missing', observed_sha256: null, journal: null });
    expect(files['linked.md']).toMatchObject({ state: 'unreachable', code: 'PATH_SYMLINK', observed_sha256: null });
    const journal = (await testDb.db.query('SELECT open_journal_id::text AS id FROM workspace_files WHERE target_id = $1', [ids['pending.md']])).rows[0].id;
    expect(files['pending.md']).toMatchObject({ state: 'pending', journal: { id: journal, state: 'started' }, observed_sha256: sha256('pending.md\n') });
  });

  it('filters by path prefix and state, and pages with an exclusive cursor', async () => {
    const docs = await call('palimpsest_workspace_status', { path_prefix: 'docs/' });
    expect(docs).toMatchObject({ total: 2, files: [{ path: 'docs/a.md' }, { path: 'docs/b.md' }] });
    expect((await call('palimpsest_workspace_status', { state: 'drifted' })).files.map((f: { path: string }) => f.path)).toEqual(['docs/b.md']);
    expect(await call('palimpsest_workspace_status', { state: 'pending' })).toMatchObject({ total: 1, files: [{ path: 'pending.md', state: 'pending' }] });
    const seen: string[] = [];
    let page = await call('palimpsest_workspace_status', { limit: 4 });
    expect(page).toMatchObject({ total: 6, truncated: true, next_cursor: expect.any(String) });
    seen.push(...page.files.map((f: { path: string }) => f.path));
    page = await call('palimpsest_workspace_status', { limit: 4, cursor: page.next_cursor });
    expect(page).toMatchObject({ truncated: false, next_cursor: null });
    seen.push(...page.files.map((f: { path: string }) => f.path));
    expect(seen).toEqual(['docs/a.md', 'docs/b.md', 'gone.md', 'linked.md', 'pending.md', 'same.md']);
  });

  it('a refresh brings a drifted file back in sync', async () => {
    expect(await call('palimpsest_workspace_refresh', { target_file_id: ids['docs/b.md'] })).toMatchObject({ status: 'refreshed', version: 1 });
    expect((await call('palimpsest_workspace_status', { path_prefix: 'docs/b' })).files).toEqual([
      expect.objectContaining({ state: 'in_sync', version: 1, observed_sha256: sha256('edited elsewhere\n') }),
    ]);
  });

  it('refuses a bad cursor, a limit over 1000 and a missing workspace', async () => {
    expect(await call('palimpsest_workspace_status', { cursor: 'not-a-cursor' })).toMatchObject({ status: 'invalid_argument', code: 'invalid_cursor' });
    expect(await call('palimpsest_workspace_status', { limit: 1001 })).toMatchObject({ status: 'invalid_argument' });
    expect(await call('palimpsest_workspace_status', {}, appContext(testDb.db, { workspace: null }))).toMatchObject({ status: 'invalid_argument', code: 'workspace_not_configured' });
  });

  it('is a read: a read-only session may call it and refresh is refused', async () => {
    expect(await dispatch(ctx, 'palimpsest_workspace_status', {}, { readOnly: true })).toMatchObject({ status: 'ok' });
    expect(await dispatch(ctx, 'palimpsest_workspace_refresh', { target_file_id: ids['same.md'] }, { readOnly: true })).toMatchObject({ status: 'invalid_argument' });
  });

  it('reports a bound file grown past 16 MiB as drifted (file_too_large), without reading it; a refresh refuses to take it in', async () => {
    writeFileSync(join(dir, 'grows.log'), 'small\n');
    const id = (await call('palimpsest_initialize_target', { filename: 'grows.log', from_workspace: true })).target_file_id;
    truncateSync(join(dir, 'grows.log'), 3 * 1024 ** 3); // sparse
    const r = await call('palimpsest_workspace_status', { path_prefix: 'grows' });
    expect(r.files).toEqual([expect.objectContaining({ path: 'grows.log', state: 'drifted', code: 'file_too_large', observed_sha256: null })]);
    expect(await call('palimpsest_workspace_refresh', { target_file_id: id })).toMatchObject({ status: 'invalid_argument', code: 'file_too_large', size: 3 * 1024 ** 3 });
    rmSync(join(dir, 'grows.log'));
  });
});
