import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';

type Answer = Record<string, any>;

describe(`changes since and relocate on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  const call = (name: string, args: Record<string, unknown>) => dispatch(h.ctx, name, args) as Promise<Answer>;

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-changes-');
  });
  afterAll(async () => {
    await h.ctx.wakes.close();
    await h.dispose();
  });

  /** alpha beta gamma delta at version 0, then: an insertion before beta, a rewrite of gamma, a deletion of delta. */
  async function history() {
    const created = await call('palimpsest_initialize_target', { filename: 'doc.md', content: 'alpha beta gamma delta\n' });
    const id = created.target_file_id as string;
    const steps = [];
    let version = 0;
    for (const edits of [[{ match: 'alpha ', replace: 'alpha and 😀 ' }], [{ match: 'gamma', replace: 'GAMMA!' }], [{ match: ' delta', replace: '' }]]) {
      const r = await call('palimpsest_submit_edits', { target_file_id: id, intent: 'step', expected_target_version: version++, edits });
      steps.push(r);
    }
    return { id, steps };
  }

  it('answers the recorded effects after a version, oldest first, in code points, paged by log position', async () => {
    const { id, steps } = await history();
    const all = await call('palimpsest_changes_since', { target_file_id: id, from_version: 0 });
    expect(all).toMatchObject({ status: 'ok', target_file_id: id, current_version: 3, complete: true, next_position: null });
    expect(all.changes.map((c: Answer) => [c.attempt_id, c.version, c.source])).toEqual(steps.map((s, i) => [s.attempt_id, i + 1, 'model_response']));
    expect(all.changes[0].effects).toEqual([{ start: 0, end: 6, inserted: 'alpha and 😀 ', inserted_code_points: 12, inserted_truncated: false }]);
    expect(all.changes[2].effects).toEqual([{ start: 23, end: 29, inserted: '', inserted_code_points: 0, inserted_truncated: false }]);

    const page = await call('palimpsest_changes_since', { target_file_id: id, from_version: 1, limit: 1, max_inserted_code_points: 2 });
    expect(page.changes).toHaveLength(1);
    expect(page.changes[0]).toMatchObject({ version: 2, effects: [{ inserted: 'GA', inserted_code_points: 6, inserted_truncated: true }] });
    expect(page.complete).toBe(false);
    const next = await call('palimpsest_changes_since', { target_file_id: id, from_position: page.next_position });
    expect(next.changes.map((c: Answer) => c.version)).toEqual([3]);
    expect(next.complete).toBe(true);
  });

  it('refuses a version ahead of the target and a call with no starting point', async () => {
    const { id } = await history();
    expect((await call('palimpsest_changes_since', { target_file_id: id, from_version: 9 })).code).toBe('version_ahead');
    expect((await call('palimpsest_changes_since', { target_file_id: id })).code).toBe('missing_from');
  });

  it('answers, over every workspace file, the changes after a position with their paths', async () => {
    writeFileSync(join(h.dir, 'a.txt'), 'one\n');
    const edit = await call('edit_file', { path: 'a.txt', oldString: 'one', newString: 'ONE' });
    const changes = await call('palimpsest_changes_since', { from_position: 0, limit: 200 });
    const mine = changes.changes.filter((c: Answer) => c.attempt_id === edit.attempt_id);
    expect(mine).toEqual([expect.objectContaining({ path: 'a.txt', target_file_id: edit.target_file_id, effects: [expect.objectContaining({ start: 0, end: 3, inserted: 'ONE' })] })]);
    expect(changes.changes.every((c: Answer) => typeof c.path === 'string')).toBe(true);
  });

  it('relocates ranges read at version 0 through insertions, rewrites and deletions', async () => {
    const { id, steps } = await history();
    const at = (start: number, end: number) => call('palimpsest_relocate_range', { target_file_id: id, version: 0, start, end });
    const text = (await call('palimpsest_get_target', { target_file_id: id })).current_content as string;
    const cps = Array.from(text);
    const beta = await at(6, 10);
    expect(beta).toMatchObject({ relocation: 'moved', version: 3, touched_by: [] });
    expect(cps.slice(beta.start, beta.end).join('')).toBe('beta');
    const gamma = await at(11, 16);
    expect(gamma).toMatchObject({ relocation: 'rewritten', touched_by: [{ attempt_id: steps[1].attempt_id, version: 2 }] });
    expect(cps.slice(gamma.start, gamma.end).join('')).toBe('GAMMA!');
    const delta = await at(17, 22);
    expect(delta).toMatchObject({ relocation: 'deleted', touched_by: [{ attempt_id: steps[2].attempt_id, version: 3 }] });
    expect(delta.start).toBe(delta.end);
    expect(await call('palimpsest_relocate_range', { target_file_id: id, version: 3, start: 0, end: 5 })).toMatchObject({ relocation: 'unchanged', start: 0, end: 5 });
    expect((await at(5, 2)).code).toBe('invalid_range');
  });
});
