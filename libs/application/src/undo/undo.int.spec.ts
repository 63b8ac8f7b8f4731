import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';

type Answer = Record<string, any>;

describe(`undo on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  const call = (name: string, args: Record<string, unknown>) => dispatch(h.ctx, name, args) as Promise<Answer>;
  const text = async (id: string) => (await call('palimpsest_get_target', { target_file_id: id })).current_content as string;

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-undo-');
  });
  afterAll(async () => {
    await h.ctx.wakes.close();
    await h.dispose();
  });

  async function target(content: string): Promise<string> {
    const r = await call('palimpsest_initialize_target', { filename: 'doc.md', content });
    return r.target_file_id;
  }

  it('undo, then undo of the undo, gives the original text back, each an accepted attempt recorded as source undo', async () => {
    const id = await target('one\ntwo 😀\nthree\n');
    const edit = await call('palimpsest_submit_edits', {
      target_file_id: id, intent: 'edit', expected_target_version: 0,
      edits: [{ match: 'two 😀', replace: 'TWO' }, { match: 'three\n', replace: '' }],
    });
    expect(edit.status).toBe('accepted');
    const undo = await call('palimpsest_undo_attempt', { target_file_id: id, attempt_id: edit.attempt_id });
    expect(undo).toMatchObject({ status: 'accepted', version: 2, undone_attempt_id: edit.attempt_id });
    expect(await text(id)).toBe('one\ntwo 😀\nthree\n');
    const redo = await call('palimpsest_undo_attempt', { target_file_id: id, attempt_id: undo.attempt_id });
    expect(redo).toMatchObject({ status: 'accepted', version: 3 });
    expect(await text(id)).toBe('one\nTWO\n');
    const again = await call('palimpsest_undo_attempt', { target_file_id: id, attempt_id: redo.attempt_id });
    expect(again.status).toBe('accepted');
    expect(await text(id)).toBe('one\ntwo 😀\nthree\n');
    const { rows } = await h.testDb.db.query<{ source: string }>('SELECT source FROM attempts WHERE target_id = $1 ORDER BY log_sequence', [id]);
    expect(rows.map((r) => r.source)).toEqual(['model_response', 'undo', 'undo', 'undo']);
  });

  it('undoes an attempt when later changes touched other text only, moving it by what they changed', async () => {
    const id = await target('alpha\nbeta\ngamma\n');
    const edit = await call('palimpsest_submit_edits', { target_file_id: id, intent: 'e', expected_target_version: 0, edits: [{ match: 'gamma', replace: 'GAMMA' }] });
    await call('palimpsest_submit_edits', { target_file_id: id, intent: 'e', expected_target_version: 1, edits: [{ match: 'alpha\n', replace: 'a much longer first line\n' }] });
    const undo = await call('palimpsest_undo_attempt', { target_file_id: id, attempt_id: edit.attempt_id });
    expect(undo.status).toBe('accepted');
    expect(await text(id)).toBe('a much longer first line\nbeta\ngamma\n');
  });

  it('refuses, and records, an undo across a later edit of the same text, naming it, with changes_since next', async () => {
    const id = await target('alpha\nbeta\ngamma\n');
    const edit = await call('palimpsest_submit_edits', { target_file_id: id, intent: 'e', expected_target_version: 0, edits: [{ match: 'beta', replace: 'BETA' }] });
    const later = await call('palimpsest_submit_edits', { target_file_id: id, intent: 'e', expected_target_version: 1, edits: [{ match: 'BETA', replace: 'BETA!' }] });
    const before = await h.testDb.db.query('SELECT count(*)::int AS n FROM attempts WHERE target_id = $1', [id]);
    const undo = await call('palimpsest_undo_attempt', { target_file_id: id, attempt_id: edit.attempt_id });
    expect(undo).toMatchObject({ status: 'rejected', code: 'undo_conflict', failure_reason: 'target_version_mismatch', undone_attempt_id: edit.attempt_id });
    expect(undo.diagnostic.conflicting_attempts).toEqual([{ attempt_id: later.attempt_id, version: 2 }]);
    expect(undo.failure_detail).toContain(later.attempt_id);
    expect(undo.next_actions[0]).toMatchObject({ operation: 'palimpsest_changes_since', params: { target_file_id: id, from_version: 1 } });
    const after = await h.testDb.db.query('SELECT count(*)::int AS n FROM attempts WHERE target_id = $1', [id]);
    expect(Number((after.rows[0] as { n: number }).n)).toBe(Number((before.rows[0] as { n: number }).n) + 1);
    expect(await text(id)).toBe('alpha\nBETA!\ngamma\n');
  });

  it('undoes a whole replacement (from its preimage: the initial text and the recorded effects up to it)', async () => {
    const id = await target('before 😀\nkept\n');
    await call('palimpsest_submit_edits', { target_file_id: id, intent: 'e', expected_target_version: 0, edits: [{ match: 'kept', replace: 'KEPT' }] });
    const replaced = await call('palimpsest_submit_replacement', { target_file_id: id, intent: 'r', expected_target_version: 1, replacement: 'all new\n' });
    const undo = await call('palimpsest_undo_attempt', { target_file_id: id, attempt_id: replaced.attempt_id });
    expect(undo.status).toBe('accepted');
    expect(await text(id)).toBe('before 😀\nKEPT\n');
  });

  it('answers not_found for an attempt of another target or a rejected one', async () => {
    const id = await target('x\n');
    const rejected = await call('palimpsest_submit_edits', { target_file_id: id, intent: 'e', expected_target_version: 0, edits: [{ match: 'nope', replace: 'y' }] });
    expect((await call('palimpsest_undo_attempt', { target_file_id: id, attempt_id: rejected.attempt_id })).code).toBe('attempt_not_found');
  });

  it('undo_edit of a bound file, then undo of that undo, restores the bytes on disk each time', async () => {
    const original = 'first line\r\nsecond line\r\nthird line\r\n';
    writeFileSync(join(h.dir, 'notes.txt'), original);
    const edit = await call('edit_file', { path: 'notes.txt', oldString: 'second line', newString: 'SECOND' });
    expect(edit.status).toBe('ok');
    const edited = readFileSync(join(h.dir, 'notes.txt'), 'utf8');
    expect(edited).toBe('first line\r\nSECOND\r\nthird line\r\n');
    const undo = await call('palimpsest_undo_edit', { path: 'notes.txt', attempt_id: edit.attempt_id });
    expect(undo).toMatchObject({ status: 'accepted', path: 'notes.txt', undone_attempt_id: edit.attempt_id });
    expect(readFileSync(join(h.dir, 'notes.txt'), 'utf8')).toBe(original);
    const redo = await call('palimpsest_undo_edit', { path: 'notes.txt', attempt_id: undo.attempt_id });
    expect(redo.status).toBe('accepted');
    expect(readFileSync(join(h.dir, 'notes.txt'), 'utf8')).toBe(edited);
    const status = await call('palimpsest_workspace_status', {});
    expect(status.files.find((f: Answer) => f.path === 'notes.txt')).toMatchObject({ state: 'in_sync' });
  });
});
