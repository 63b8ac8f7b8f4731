import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';
import { putFile } from '../file-tools/test-support/put-file';
import { dispatchRequest as dispatch } from './dispatch';

describe(`an unknown argument answers the call that was meant, on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  const call = (tool: string, args: unknown) => dispatch(h.ctx, tool, args) as Promise<Record<string, any>>;
  const follow = (r: Record<string, any>) => call(r.next_actions[0].operation, r.next_actions[0].params);

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-meant-');
    putFile(h.dir, 'a.ts', 'const a = 1;\n');
  });
  afterAll(() => h.dispose());

  it('renames old_string and new_string to the names edit_file takes, and the call lands as offered', async () => {
    const r = await call('edit_file', { path: 'a.ts', old_string: 'a = 1', new_string: 'a = 2' });
    expect(r).toMatchObject({ code: 'unknown_argument', answer: 'INVALID_ARGUMENTS' });
    expect(r.next_actions[0]).toMatchObject({ operation: 'edit_file', params: { path: 'a.ts', oldString: 'a = 1', newString: 'a = 2' } });
    expect(await follow(r)).toMatchObject({ status: 'ok', replacements: 1 });
  });

  it('drops what a read does not know, and the read answers', async () => {
    const r = await call('read_file', { path: 'a.ts', encoding: 'utf8', Offset: 1 });
    expect(r.next_actions[0].params).toEqual({ path: 'a.ts', offset: 1 });
    expect(await follow(r)).toMatchObject({ status: 'ok', content: 'const a = 2;\n' });
  });

  it('offers nothing for a write with a name it cannot tell, nor a call that still would not be admitted', async () => {
    expect(await call('write_file', { path: 'b.ts', content: 'x', mode: '0644' })).not.toHaveProperty('next_actions');
    expect(await call('edit_file', { path: 'a.ts', old_string: 'a' })).not.toHaveProperty('next_actions');
  });
});
