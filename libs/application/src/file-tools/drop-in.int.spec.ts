import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';
import { putFile } from './test-support/put-file';

/**
 * The file tools as an agent written against the drop-in tool set meets them: each case is a behaviour
 * that tool set documents for its tools, with the code it answers in `answer` (our finer code in `code`).
 */
describe(`the drop-in file tools answer the codes their agents know, on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  const call = (tool: string, args: unknown) => dispatch(h.ctx, tool, args) as Promise<Record<string, any>>;

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-drop-in-');
    putFile(h.dir, 'src/index.ts', 'export const a = 1;\nexport const b = 1;\n');
    putFile(h.dir, '.gitignore', 'dist/\n');
    putFile(h.dir, 'dist/out.js');
    putFile(h.dir, 'node_modules/pkg/index.js');
    putFile(h.dir, '.git/HEAD');
  });
  afterAll(() => h.dispose());

  it.each([
    ['read_file', {}, 'missing_argument'],
    ['read_file', { path: 'src/index.ts', bogus: 1 }, 'unknown_argument'],
    ['read_file', { path: 'src/index.ts', offset: 'x' }, 'invalid_argument_value'],
    ['read_file', { path: 'src/index.ts', offset: 9 }, 'INVALID_ARGUMENTS'],
    ['grep', { pattern: '(' }, 'INVALID_ARGUMENTS'],
    ['list_files', { recursive: 'yes' }, 'invalid_argument_value'],
    ['edit_file', { path: 'src/index.ts', oldString: 'a' }, 'missing_argument'],
    ['write_file', { path: 'x.ts' }, 'missing_argument'],
  ])('%s %j: INVALID_ARGUMENTS (%s)', async (tool, args, code) => {
    expect(await call(tool, args)).toMatchObject({ status: 'invalid_argument', code, answer: 'INVALID_ARGUMENTS' });
  });

  it.each([
    ['read_file', { path: '/etc/passwd' }],
    ['read_file', { path: '../outside.ts' }],
    ['edit_file', { path: '../x.ts', oldString: 'a', newString: 'b' }],
    ['write_file', { path: '/tmp/x.ts', content: 'x' }],
    ['list_files', { path: '..' }],
  ])('%s %j: PATH_ESCAPE before the disk is touched', async (tool, args) => {
    expect(await call(tool, args)).toMatchObject({ code: 'PATH_ESCAPE', answer: 'PATH_ESCAPE' });
  });

  it.each([
    ['read_file', { path: 'src/missing.ts' }],
    ['edit_file', { path: 'src/missing.ts', oldString: 'a', newString: 'b' }],
  ])('%s of a missing file: PATH_NOT_FOUND', async (tool, args) => {
    expect(await call(tool, args)).toMatchObject({ answer: 'PATH_NOT_FOUND' });
  });

  it.each(['./src/index.ts', 'src//index.ts', 'src/../src/index.ts'])('resolves %s inside the root to its canonical path, as the drop-in tools do', async (path) => {
    expect(await call('read_file', { path })).toMatchObject({ status: 'ok', path: 'src/index.ts', totalLines: 2 });
  });

  it("refuses what Palimpsest keeps as FORBIDDEN, and .git's internals to writes", async () => {
    expect(await call('read_file', { path: '.palimpsest/data.gateway.json' })).toMatchObject({ code: 'PATH_RESERVED', answer: 'FORBIDDEN' });
    expect(await call('write_file', { path: '.git/HEAD', content: 'x' })).toMatchObject({ answer: 'FORBIDDEN' });
  });

  it('an ambiguous oldString is refused as a failed tool call, never applied to one of its matches', async () => {
    const r = await call('edit_file', { path: 'src/index.ts', oldString: '= 1;', newString: '= 2;' });
    expect(r).toMatchObject({ status: 'rejected', answer: 'TOOL_FAILED' });
    expect((await call('read_file', { path: 'src/index.ts' })).content).toBe('export const a = 1;\nexport const b = 1;\n');
  });

  it('answers what the tool set documents on success: totalLines and truncated, a diff, parents made, no answer code', async () => {
    const read = await call('read_file', { path: 'src/index.ts', offset: 2 });
    expect(read).toEqual({ status: 'ok', path: 'src/index.ts', content: 'export const b = 1;\n', truncated: false, totalLines: 2 });
    const edit = await call('edit_file', { path: 'src/index.ts', oldString: 'const a = 1', newString: 'const a = 3' });
    expect(edit).toMatchObject({ status: 'ok' });
    expect(edit.diff).toContain('+export const a = 3;');
    expect(edit).not.toHaveProperty('answer');
    expect(await call('write_file', { path: 'new/dir/file.ts', content: 'x\n' })).toMatchObject({ status: 'ok' });
  });

  it('a recursive listing respects .gitignore and always skips .git and node_modules', async () => {
    const listed = (await call('list_files', { recursive: true })).entries.map((e: { path: string }) => e.path);
    expect(listed).toEqual(expect.arrayContaining(['src/index.ts', '.gitignore']));
    expect(listed.filter((p: string) => /^(dist|node_modules|\.git)(\/|$)/.test(p))).toEqual([]);
  });
});
