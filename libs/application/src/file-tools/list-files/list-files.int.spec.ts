import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { openWorkspaceRoot, type WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { type AppContext } from '../../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatchRequest as dispatch } from '../../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../../test-support/workspace-harness';
import { expectPublishedResult, publishedSchema } from '../test-support/published-result';
import { putFile } from '../test-support/put-file';

describe(`list_files on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  let dir: string;
  let big: string;
  let outside: string;
  const roots: WorkspaceRoot[] = [];
  const call = async (args: unknown, c: AppContext = h.ctx) => {
    const answer = (await dispatch(c, 'list_files', args, { readOnly: true })) as Record<string, any>;
    expectPublishedResult('list_files', answer);
    return answer;
  };
  const paths = (r: Record<string, any>) => r.entries.map((e: { path: string }) => e.path);

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-list-');
    dir = h.dir;
    outside = mkdtempSync(join(tmpdir(), 'palimpsest-list-outside-'));
    putFile(dir, '.gitignore', 'dist/\n*.log\n');
    putFile(dir, 'README.md');
    putFile(dir, 'app.log');
    putFile(dir, 'dist/out.js');
    putFile(dir, 'src/a.ts', 'abc');
    putFile(dir, 'src/b.js');
    putFile(dir, 'src/gen/.gitignore', 'generated.ts\n');
    putFile(dir, 'src/gen/generated.ts');
    putFile(dir, 'src/gen/kept.ts');
    putFile(dir, 'lib/generated.ts');
    putFile(dir, '.git/HEAD');
    putFile(dir, 'node_modules/pkg/index.ts');
    putFile(dir, 'src/node_modules/x.ts');
    putFile(outside, 'secret.ts');
    symlinkSync(outside, join(dir, 'src/escape'));
    symlinkSync(join(outside, 'secret.ts'), join(dir, 'src/secret.ts'));
    big = mkdtempSync(join(tmpdir(), 'palimpsest-list-big-'));
    for (let d = 0; d < 12; d++) for (let f = 0; f < 100; f++) putFile(big, `d${String(d).padStart(2, '0')}/f${String(f).padStart(3, '0')}.txt`, 'x');
  });
  afterAll(async () => {
    for (const r of roots) r.close();
    for (const d of [big, outside]) rmSync(d, { recursive: true, force: true });
    await h.dispose();
  });

  it('accepts the seed input schema exactly and refuses a wrong type', async () => {
    expect(publishedSchema('list_files', 'params')({})).toBe(true);
    expect(publishedSchema('list_files', 'params')({ path: 'src', recursive: true, glob: '**/*.ts' })).toBe(true);
    for (const bad of [{ recursive: 'yes' }, { path: '' }, { glob: 1 }, { depth: 2 }]) expect((await call(bad)).status).toBe('invalid_argument');
  });

  it('lists one directory by default, sorted, with types and sizes of files', async () => {
    const r = await call({});
    expect(r).toMatchObject({ status: 'ok', path: '.', truncated: false });
    expect(r.entries).toEqual([
      { path: '.git', type: 'directory' },
      { path: '.gitignore', type: 'file', size: 12 },
      { path: 'README.md', type: 'file', size: 10 },
      { path: 'app.log', type: 'file', size: 8 },
      { path: 'dist', type: 'directory' },
      { path: 'lib', type: 'directory' },
      { path: 'node_modules', type: 'directory' },
      { path: 'src', type: 'directory' },
    ]);
    expect((await call({ path: 'src' })).entries).toContainEqual({ path: 'src/a.ts', type: 'file', size: 3 });
  });

  it('walks recursively under the .gitignore files (root and nested), never into .git, node_modules or a link', async () => {
    const r = await call({ recursive: true });
    expect(paths(r)).toEqual([
      '.gitignore', 'README.md', 'lib', 'lib/generated.ts', 'src', 'src/a.ts', 'src/b.js', 'src/escape', 'src/gen', 'src/gen/.gitignore', 'src/gen/kept.ts', 'src/secret.ts',
    ]);
    expect(r.entries).toContainEqual({ path: 'src/escape', type: 'symlink' });
    expect(r.entries).toContainEqual({ path: 'src/secret.ts', type: 'symlink' });
    // The root's .gitignore applies when the listing starts below it, and so does the nested one.
    expect(paths(await call({ path: 'src', recursive: true }))).toEqual(['src/a.ts', 'src/b.js', 'src/escape', 'src/gen', 'src/gen/.gitignore', 'src/gen/kept.ts', 'src/secret.ts']);
  });

  it('filters by glob', async () => {
    expect(paths(await call({ recursive: true, glob: '**/*.ts' }))).toEqual(['lib/generated.ts', 'src/a.ts', 'src/gen/kept.ts', 'src/secret.ts']);
    expect(paths(await call({ path: 'src', glob: '*.js' }))).toEqual(['src/b.js']);
  });

  it('lists a path naming a file as that file alone, the glob matched against its name', async () => {
    expect(await call({ path: 'src/a.ts' })).toEqual({ status: 'ok', path: 'src/a.ts', entries: [{ path: 'src/a.ts', type: 'file', size: 3 }], truncated: false });
    expect(await call({ path: 'src/a.ts', recursive: true, glob: '*.ts' })).toEqual({ status: 'ok', path: 'src/a.ts', entries: [{ path: 'src/a.ts', type: 'file', size: 3 }], truncated: false });
    expect(await call({ path: 'src/a.ts', glob: '*.md' })).toEqual({ status: 'ok', path: 'src/a.ts', entries: [], truncated: false });
    expect(await call({ path: 'src/a.ts/x' })).toMatchObject({ status: 'not_found', code: 'PATH_NOT_FOUND' });
  });

  it('refuses a link, an escape and a missing directory', async () => {
    expect(await call({ path: 'src/escape' })).toMatchObject({ status: 'invalid_argument', code: 'PATH_SYMLINK' });
    expect(await call({ path: '../' })).toMatchObject({ status: 'invalid_argument', code: 'PATH_ESCAPE' });
    expect(await call({ path: '..' })).toMatchObject({ status: 'invalid_argument', code: 'PATH_ESCAPE' });
    expect(await call({ path: '/etc' })).toMatchObject({ status: 'invalid_argument', code: 'PATH_ESCAPE' });
    expect(await call({ path: 'nowhere' })).toMatchObject({ status: 'not_found', code: 'PATH_NOT_FOUND' });
  });

  it('stops at 1,000 entries of a 1,200-file tree, truncated, under MAX_RESULT_BYTES', async () => {
    const root = openWorkspaceRoot(big);
    roots.push(root);
    const r = await call({ recursive: true }, appContext(h.testDb.db, { workspace: root }));
    expect(r.entries).toHaveLength(1000);
    expect(r.truncated).toBe(true);
    expect(r.entries[0]).toEqual({ path: 'd00', type: 'directory' });
    expect(r.entries[1]).toEqual({ path: 'd00/f000.txt', type: 'file', size: 1 });
    expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThan(1_000_000);
    const files = await call({ recursive: true, glob: 'd11/*.txt' }, appContext(h.testDb.db, { workspace: root }));
    expect(files).toMatchObject({ truncated: false });
    expect(files.entries).toHaveLength(100);
  });
});
