import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';

describe(`palimpsest_handle_upload on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  const call = (name: string, args: unknown) => dispatch(h.ctx, name, args) as Promise<Record<string, any>>;

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-upload-');
  });
  afterAll(() => h.dispose());

  it('refuses from_workspace: true instead of ignoring it, and names the call that imports the file', async () => {
    writeFileSync(join(h.dir, 'notes.md'), 'on disk\n');
    const r = await call('palimpsest_handle_upload', { filename: 'notes.md', content: 'uploaded\n', from_workspace: true });
    expect(r).toMatchObject({
      status: 'invalid_argument',
      code: 'upload_from_workspace',
      argument: 'from_workspace',
      next_actions: [{ operation: 'palimpsest_initialize_target', params: { filename: 'notes.md', from_workspace: true } }],
    });
    expect((await call('palimpsest_workspace_status', {})).files).toEqual([]);
    const next = r.next_actions[0];
    const imported = await call(next.operation, next.params);
    expect(imported).toMatchObject({ status: 'ok', workspace: { path: 'notes.md' } });
    expect((await call('palimpsest_get_target', { target_file_id: imported.target_file_id })).current_content).toBe('on disk\n');
  });

  it('uploads content as before, from_workspace false or absent', async () => {
    for (const args of [{ filename: 'a.md', content: 'a\n' }, { filename: 'b.md', content: 'b\n', from_workspace: false }]) {
      const r = await call('palimpsest_handle_upload', args);
      expect(r).toMatchObject({ status: 'ok', workspace: null });
    }
  });
});
