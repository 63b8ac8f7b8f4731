import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { reservingKept } from '@palimpsest/workspace/workspace-root';
import { type AppContext } from '../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { keptPaths, readConfig } from '@palimpsest/composition/palimpsest-config';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';
import { expectPublishedResult } from './test-support/published-result';
import { putFile } from './test-support/put-file';

/**
 * What Palimpsest keeps inside the workspace root is out of every file tool's reach, whatever the
 * spelling: a project with the default `.palimpsest/` (data, lock, gateway credential), a configured data
 * directory and policy file inside it, and `.git`.
 */
const TOKEN = 'pal_secret_token_0123456789';

const RESERVED = [
  '.palimpsest',
  '.palimpsest/.gitignore',
  '.palimpsest/data.gateway.json',
  '.palimpsest/data.lock',
  '.palimpsest/data/PG_VERSION',
  '.palimpsest/data/new-file',
  'packages/web/.palimpsest/data.gateway.json',
  'src/.palimpsest-0b6c2b44-0.backup',
  'var/store',
  'var/store/PG_VERSION',
  'var/store.lock',
  'var/store.gateway.json',
  'var/store.restoring-42/PG_VERSION',
  'config/policy.yaml',
];

/** The same path spelled the ways an agent might: as is, with `./`, with a doubled slash, climbed back into. */
function spellings(path: string): string[] {
  const slash = path.indexOf('/');
  return [path, `./${path}`, slash < 0 ? `${path}//` : `${path.slice(0, slash)}//${path.slice(slash + 1)}`, `src/../${path}`].filter((s, i, all) => all.indexOf(s) === i);
}

describe(`reserved paths through the file tools on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  let dir: string;
  let ctx: AppContext;
  const call = async (name: string, args: Record<string, unknown>) => {
    const answer = (await dispatch(ctx, name, args)) as Record<string, any>;
    if (name !== 'palimpsest_initialize_target') expectPublishedResult(name, answer);
    return answer;
  };
  const onDisk = () =>
    RESERVED.filter((p) => existsSync(join(dir, p)) && !p.endsWith('store') && p !== '.palimpsest').map((p) => [p, readFileSync(join(dir, p), 'utf8')]);

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-reserved-');
    dir = h.dir;
    putFile(dir, 'README.md', '# project\n');
    putFile(dir, 'src/a.ts', 'export const a = 1;\n');
    putFile(dir, 'config/app.json', '{}\n');
    putFile(dir, '.git/config', '[core]\n');
    putFile(dir, '.git/HEAD', 'ref: refs/heads/main\n');
    putFile(dir, '.palimpsest/.gitignore', '*\n');
    putFile(dir, '.palimpsest/data.gateway.json', JSON.stringify({ token: TOKEN }));
    putFile(dir, '.palimpsest/data.lock', '1\n');
    putFile(dir, '.palimpsest/data/PG_VERSION', '17\n');
    // More entries than one listing holds: none of them may count against the cap.
    for (let i = 0; i < 1100; i++) putFile(dir, `.palimpsest/data/base/${String(i).padStart(4, '0')}`, `${TOKEN}\n`);
    putFile(dir, 'packages/web/.palimpsest/data.gateway.json', JSON.stringify({ token: TOKEN }));
    putFile(dir, 'packages/web/index.ts', 'export {};\n');
    putFile(dir, 'src/.palimpsest-0b6c2b44-0.backup', `${TOKEN}\n`);
    putFile(dir, 'var/store/PG_VERSION', '17\n');
    putFile(dir, 'var/store.lock', '1\n');
    putFile(dir, 'var/store.gateway.json', JSON.stringify({ token: TOKEN }));
    putFile(dir, 'var/store.restoring-42/PG_VERSION', '17\n');
    putFile(dir, 'var/storehouse.txt', 'not ours\n');
    putFile(dir, 'config/policy.yaml', `# ${TOKEN}\nprofiles: {}\n`);
    const kept = keptPaths(readConfig({ PALIMPSEST_DATA_DIR: 'var/store', PALIMPSEST_POLICY_FILE: join(dir, 'config/policy.yaml') }, dir));
    ctx = appContext(h.testDb.db, { workspace: reservingKept(h.root, kept) });
  });
  afterAll(() => h.dispose());

  const refusedReserved = (r: Record<string, any>) => {
    expect(r).toMatchObject({ status: 'invalid_argument', code: 'PATH_RESERVED', next_actions: [{ operation: 'list_files', params: {} }] });
    expect(r.failure_detail).toMatch(/reserved|git's own/);
    expect(JSON.stringify(r)).not.toContain(TOKEN);
  };

  it.each(RESERVED.flatMap((p) => spellings(p).map((s) => [s, p])))('refuses %s (%s) to every tool', async (spelled) => {
    const before = onDisk();
    refusedReserved(await call('read_file', { path: spelled }));
    refusedReserved(await call('list_files', { path: spelled }));
    refusedReserved(await call('grep', { pattern: 'pal_', path: spelled }));
    refusedReserved(await call('edit_file', { path: spelled, oldString: '17', newString: '99' }));
    refusedReserved(await call('write_file', { path: spelled, content: 'taken\n' }));
    refusedReserved(await call('palimpsest_initialize_target', { filename: spelled, from_workspace: true }));
    expect(onDisk()).toEqual(before);
    expect(existsSync(join(dir, '.palimpsest/data/new-file'))).toBe(false);
  });

  it('lists the project, never what Palimpsest keeps, and does not count it against the cap', async () => {
    const top = await call('list_files', {});
    expect(top.entries.map((e: { path: string }) => e.path)).toEqual(['.git', 'README.md', 'config', 'packages', 'src', 'var']);
    const all = await call('list_files', { recursive: true });
    expect(all).toMatchObject({ status: 'ok', truncated: false });
    expect(all.entries.map((e: { path: string }) => e.path)).toEqual([
      'README.md', 'config', 'config/app.json', 'packages', 'packages/web', 'packages/web/index.ts', 'src', 'src/a.ts', 'var', 'var/storehouse.txt',
    ]);
    const globbed = await call('list_files', { recursive: true, glob: '**/*.json' });
    expect(globbed.entries.map((e: { path: string }) => e.path)).toEqual(['config/app.json']);
    expect((await call('list_files', { path: 'var' })).entries).toEqual([{ path: 'var/storehouse.txt', type: 'file', size: 9 }]);
  });

  it('never searches what Palimpsest keeps', async () => {
    expect(await call('grep', { pattern: 'pal_secret' })).toEqual({ status: 'ok', matches: [], truncated: false });
    expect((await call('grep', { pattern: 'export' })).matches.map((m: { path: string }) => m.path)).toEqual(['packages/web/index.ts', 'src/a.ts']);
  });

  it('reads .git but never writes, edits or binds it', async () => {
    expect(await call('read_file', { path: '.git/HEAD' })).toMatchObject({ status: 'ok', content: 'ref: refs/heads/main\n' });
    expect(await call('read_file', { path: './.git//config' })).toMatchObject({ status: 'ok', path: '.git/config' });
    for (const path of ['.git/config', './.git/config', 'src/../.git/config']) {
      refusedReserved(await call('edit_file', { path, oldString: '[core]', newString: '[core]\n\thooksPath = x' }));
      refusedReserved(await call('palimpsest_initialize_target', { filename: path, from_workspace: true }));
    }
    refusedReserved(await call('write_file', { path: '.git/hooks/pre-commit', content: '#!/bin/sh\n' }));
    expect(readFileSync(join(dir, '.git/config'), 'utf8')).toBe('[core]\n');
    expect(existsSync(join(dir, '.git/hooks'))).toBe(false);
  });

  it('resolves benign spellings to the canonical path, one binding for all of them', async () => {
    expect(await call('read_file', { path: './src/a.ts' })).toMatchObject({ status: 'ok', path: 'src/a.ts', content: 'export const a = 1;\n' });
    expect(await call('list_files', { path: 'src/' })).toMatchObject({ status: 'ok', path: 'src', entries: [{ path: 'src/a.ts' }] });
    expect(await call('list_files', { path: './src/../src' })).toMatchObject({ status: 'ok', path: 'src' });
    const first = await call('edit_file', { path: 'src//a.ts', oldString: 'a = 1', newString: 'a = 2' });
    expect(first).toMatchObject({ status: 'ok', path: 'src/a.ts', bound_now: true, version: 1 });
    const second = await call('edit_file', { path: 'src/../src/a.ts', oldString: 'a = 2', newString: 'a = 3' });
    expect(second).toMatchObject({ status: 'ok', path: 'src/a.ts', bound_now: false, version: 2, target_file_id: first.target_file_id });
    expect(readFileSync(join(dir, 'src/a.ts'), 'utf8')).toBe('export const a = 3;\n');
    expect((await call('grep', { pattern: 'a = 3', path: './src/' })).matches).toEqual([expect.objectContaining({ path: 'src/a.ts' })]);

    const bound = await call('palimpsest_initialize_target', { filename: './README.md', from_workspace: true });
    expect(bound).toMatchObject({ status: 'ok', filename: 'README.md', workspace: { path: 'README.md' } });
    const edited = await call('edit_file', { path: 'README.md', oldString: '# project', newString: '# Project' });
    expect(edited).toMatchObject({ status: 'ok', target_file_id: bound.target_file_id, bound_now: false });

    const created = await call('write_file', { path: './docs//new.md', content: 'new\n' });
    expect(created).toMatchObject({ status: 'ok', path: 'docs/new.md' });
    expect(readFileSync(join(dir, 'docs/new.md'), 'utf8')).toBe('new\n');
  });

  it('never refreshes from nor publishes to a path reserved after it was bound', async () => {
    const unreserved = appContext(h.testDb.db, { workspace: h.root });
    const policy = () => readFileSync(join(dir, 'config/policy.yaml'), 'utf8');
    const before = policy();
    const bound = (await dispatch(unreserved, 'palimpsest_initialize_target', { filename: 'config/policy.yaml', from_workspace: true })) as Record<string, any>;
    expect(bound).toMatchObject({ status: 'ok', workspace: { path: 'config/policy.yaml' } });
    const id = bound.target_file_id;
    writeFileSync(join(dir, 'config/policy.yaml'), `${before}# changed on disk\n`);
    const refreshed = await call('palimpsest_workspace_refresh', { target_file_id: id });
    expect(refreshed).toMatchObject({ code: 'PATH_RESERVED' });
    writeFileSync(join(dir, 'config/policy.yaml'), before);
    await call('palimpsest_submit_edits', { target_file_id: id, intent: 'widen', expected_target_version: 0, edits: [{ match: 'profiles: {}', replace: 'profiles: { all: {} }' }] });
    const saved = await call('palimpsest_save', { target_file_id: id, sync_workspace: true });
    expect(JSON.stringify(saved)).toContain('PATH_RESERVED');
    expect(policy()).toBe(before);
  });

  it('keeps anything that leaves the root an escape', async () => {
    for (const path of ['../outside.txt', 'src/../../outside.txt', './../x', 'src/./../..']) {
      expect(await call('read_file', { path })).toMatchObject({ status: 'invalid_argument', code: 'PATH_ESCAPE' });
      expect(await call('write_file', { path, content: 'x\n' })).toMatchObject({ status: 'invalid_argument', code: 'PATH_ESCAPE' });
    }
    expect(await call('list_files', { path: '../' })).toMatchObject({ status: 'invalid_argument', code: 'PATH_ESCAPE' });
  });
});
