import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALLOW_ALL } from '@palimpsest/core/policy/owner-policy';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { decideApproval, listApprovals } from '../candidates/approvals/approvals.handler';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';

describe(`a workspace file's target records its type by extension, on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-target-type-');
  });
  afterAll(() => h.dispose());

  const call = (name: string, args: unknown) => dispatch(h.ctx, name, args) as Promise<Record<string, any>>;
  const typeOf = async (targetId: string) => (await call('palimpsest_get_target', { target_file_id: targetId })).target_type;

  it('text/markdown for a Markdown file bound by edit_file, created by write_file, or initialized from the workspace', async () => {
    writeFileSync(join(h.dir, 'README.md'), '# Title\n\nbody\n');
    const edited = await call('edit_file', { path: 'README.md', oldString: 'body', newString: 'text' });
    expect(edited.status).toBe('ok');
    expect(await typeOf(edited.target_file_id)).toBe('text/markdown');
    const created = await call('write_file', { path: 'docs/guide.md', content: '# Guide\n' });
    expect(await typeOf(created.target_file_id)).toBe('text/markdown');
    writeFileSync(join(h.dir, 'notes.markdown'), 'n\n');
    const initialized = await call('palimpsest_initialize_target', { filename: 'notes.markdown', from_workspace: true });
    expect(initialized.target_type).toBe('text/markdown');
  });

  it('and its friends: JSON, YAML, TypeScript; text/plain without a known extension; an explicit content_type wins', async () => {
    for (const [path, type] of [['package.json', 'application/json'], ['ci.yml', 'application/yaml'], ['src/a.ts', 'text/typescript'], ['Makefile', 'text/plain']]) {
      const created = await call('write_file', { path, content: 'x\n' });
      expect({ path, type: await typeOf(created.target_file_id) }).toEqual({ path, type });
    }
    writeFileSync(join(h.dir, 'odd.md'), 'x\n');
    expect((await call('palimpsest_initialize_target', { filename: 'odd.md', from_workspace: true, content_type: 'text/plain' })).target_type).toBe('text/plain');
  });

  it('a new file created under an approval policy too', async () => {
    const answer = dispatch(h.ctx, 'write_file', { path: 'approved.md', content: '# A\n' }, { policy: { ...ALLOW_ALL, name: 'reviewed', approve: true } }) as Promise<Record<string, any>>;
    let pending: string | undefined;
    while (!pending) pending = (await listApprovals(h.ctx.db, { status: 'pending' }))[0]?.approval_id;
    await decideApproval(h.ctx, { approval_id: pending, decision: 'grant', decided_by: 'ops' });
    expect(await typeOf((await answer).target_file_id)).toBe('text/markdown');
  });
});
