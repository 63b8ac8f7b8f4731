import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dispatchRequest } from '@palimpsest/application/dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '@palimpsest/application/test-support/workspace-harness';
import { archiveBefore } from '@palimpsest/store/log-archive';
import { rollLog } from '@palimpsest/store/log-partitions';
import { recordedWrite } from './connect-reconcile';

/**
 * What an executor answers for a write it started and never answered (killed after the write committed):
 * the tool's own answer, rebuilt from the project's record by the request id the write committed with.
 */
describe('a relayed write settled from the project\'s record', () => {
  let ws: WorkspaceHarness;
  const run = (tool: string, args: Record<string, unknown>, requestId: string) => dispatchRequest(ws.ctx, tool, args, { correlationId: requestId });

  beforeAll(async () => {
    ws = await createWorkspaceHarness('palimpsest-reconcile-');
    writeFileSync(join(ws.dir, 'notes.txt'), 'one\nEND\n');
  });

  afterAll(async () => {
    await ws?.dispose();
  });

  it('answers an applied edit_file and write_file as the tool answered them', async () => {
    // A first touch binds the file (a transaction of its own before the edit's): the rebuilt answer says so.
    const first = await run('edit_file', { path: 'notes.txt', oldString: 'one', newString: 'one!' }, 'rq_first');
    expect(first).toMatchObject({ status: 'ok', bound_now: true, external_attempt_id: null });
    expect(await recordedWrite(ws.ctx, 'rq_first', 'edit_file')).toEqual(first);
    const edited = await run('edit_file', { path: 'notes.txt', oldString: 'END', newString: 'two\nEND' }, 'rq_edit');
    expect(edited).toMatchObject({ status: 'ok', bound_now: false, external_attempt_id: null });
    expect(await recordedWrite(ws.ctx, 'rq_edit', 'edit_file')).toEqual(edited);
    // A change made outside is taken in first (its own attempt): the rebuilt answer names that attempt.
    writeFileSync(join(ws.dir, 'notes.txt'), 'one!\ntwo\noutside\nEND\n');
    const over = await run('edit_file', { path: 'notes.txt', oldString: 'outside', newString: 'inside' }, 'rq_over');
    expect(over).toMatchObject({ status: 'ok', bound_now: false, external_attempt_id: expect.any(String) });
    expect(await recordedWrite(ws.ctx, 'rq_over', 'edit_file')).toEqual(over);
    // write_file over an outside change, and a first touch of an existing file by write_file.
    writeFileSync(join(ws.dir, 'notes.txt'), 'changed outside\n');
    const overwritten = await run('write_file', { path: 'notes.txt', content: 'whole again\n' }, 'rq_overwrite');
    expect(overwritten).toMatchObject({ status: 'ok', created: false, external_attempt_id: expect.any(String) });
    expect(await recordedWrite(ws.ctx, 'rq_overwrite', 'write_file')).toEqual(overwritten);
    writeFileSync(join(ws.dir, 'untouched.txt'), 'old\n');
    const bound = await run('write_file', { path: 'untouched.txt', content: 'new\n' }, 'rq_bind_write');
    expect(bound).toMatchObject({ status: 'ok', created: false, bound_now: true });
    expect(await recordedWrite(ws.ctx, 'rq_bind_write', 'write_file')).toEqual(bound);

    const created = await run('write_file', { path: 'new/file.txt', content: 'fresh\r\n' }, 'rq_create');
    expect(created).toMatchObject({ status: 'ok', created: true });
    expect(await recordedWrite(ws.ctx, 'rq_create', 'write_file')).toEqual(created);

    const replaced = await run('write_file', { path: 'notes.txt', content: 'whole\n' }, 'rq_replace');
    expect(replaced).toMatchObject({ status: 'ok', created: false });
    expect(await recordedWrite(ws.ctx, 'rq_replace', 'write_file')).toEqual(replaced);
  });

  it('finds nothing for a write that did not apply: refused, or never run', async () => {
    expect(await run('edit_file', { path: 'notes.txt', oldString: 'absent', newString: 'x' }, 'rq_refused')).toMatchObject({ status: 'rejected' });
    expect(await recordedWrite(ws.ctx, 'rq_refused', 'edit_file')).toBeNull();
    expect(await recordedWrite(ws.ctx, 'rq_never', 'write_file')).toBeNull();
  });

  it('answers the same once the writes\' events are archived', async () => {
    const writes = [['rq_first', 'edit_file'], ['rq_over', 'edit_file'], ['rq_create', 'write_file'], ['rq_replace', 'write_file']] as const;
    const answers = async () => Promise.all(writes.map(([id, tool]) => recordedWrite(ws.ctx, id, tool)));
    const before = await answers();
    expect(before.every((a) => a?.status === 'ok')).toBe(true);
    await rollLog(ws.testDb.db);
    expect(await archiveBefore(ws.testDb.db, { beforePosition: Number.MAX_SAFE_INTEGER })).toHaveLength(1);
    expect(await answers()).toEqual(before);
  });
});
