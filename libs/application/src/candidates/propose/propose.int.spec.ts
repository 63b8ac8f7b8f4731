import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { createAppHarness, type AppHarness } from '../../test-support/app-harness';
import { inadmissibleActions } from '../../test-support/next-action-admission';
import { candidateCalls, edit, expectOk } from '../test-support/candidate-harness';

describe(`palimpsest_change_propose and palimpsest_edit_plan on ${describeBackend}`, () => {
  let h: AppHarness;
  let c: ReturnType<typeof candidateCalls>;
  let a: string;
  let b: string;
  const events = () => h.count('SELECT count(*) FROM events');

  beforeAll(async () => {
    h = await createAppHarness();
    c = candidateCalls(h);
    a = await h.target('alpha beta alpha\n');
    b = await h.target('one\ntwo\n', 'list.txt');
  });
  afterAll(() => h.dispose());

  it('proposes over two targets without touching either, and replays the same request_id', async () => {
    const args = {
      request_id: 'p-replay',
      base: [{ target_file_id: a, version: 0 }, { target_file_id: b, version: 0 }],
      operations: [edit(a, 'alpha', 'gamma', { occurrence_index: 2 }), { kind: 'replace_all', target_file_id: b, replacement: 'three\n' }],
      intent: 'two at once',
    };
    const first = expectOk(await c.call('palimpsest_change_propose', args));
    expect(first).toMatchObject({
      replayed: false,
      candidate: { version: 1, state: 'open', request_id: 'p-replay', intent: 'two at once' },
      operations: [{ index: 0, kind: 'edit', start: 11, end: 16 }, { index: 1, kind: 'replace_all', start: 0, end: 8, written_end: 6 }],
      files: [{ target_file_id: a, change: 'modified' }, { target_file_id: b, change: 'modified' }],
    });
    expect(await c.content(a)).toMatchObject({ version: 0, text: 'alpha beta alpha\n' });
    const before = await events();
    const again = expectOk(await c.call('palimpsest_change_propose', args));
    expect(again).toMatchObject({ replayed: true, candidate: { id: first.candidate.id, version: 1 }, operations: first.operations });
    expect(await events()).toBe(before);
    const reused = await c.call('palimpsest_change_propose', { ...args, intent: 'other' });
    expect(reused).toMatchObject({ status: 'error', error: { code: 'conflict', reason: 'request_id_reused', retryable: 'none' } });
  });

  it('extends an open candidate: version 2 builds on the candidate text, a new target joins', async () => {
    const p = expectOk(await c.propose([[a, 0]], [edit(a, 'beta', 'BETA')]));
    const x = expectOk(await c.propose([[a, 0], [b, 0]], [edit(a, 'BETA', 'B'), edit(b, 'two', '2')], { candidate: p.candidate.id, expected_candidate_version: 1 }));
    expect(x.candidate).toMatchObject({ id: p.candidate.id, version: 2 });
    const inspect = expectOk(await c.call('palimpsest_change_inspect', { candidate: p.candidate.id, include: ['content'] }));
    expect(inspect.targets.map((t: any) => t.content)).toEqual(['alpha B alpha\n', 'one\n2\n']);
    const stale = await c.propose([[a, 0]], [edit(a, 'B', 'b')], { candidate: p.candidate.id, expected_candidate_version: 1 });
    expect(stale.error).toMatchObject({ code: 'precondition_failed', reason: 'candidate_version_mismatch', details: { current_version: 2 } });
  });

  it('is all or nothing: a failing operation names operation_index and nothing is stored', async () => {
    const before = await events();
    const r = await c.propose([[a, 0], [b, 0]], [edit(b, 'one', '1'), edit(a, 'omega', 'x')]);
    expect(r).toMatchObject({ status: 'error', error: { code: 'precondition_failed', reason: 'match_absent', operation_index: 1, retryable: 'after_refresh' } });
    expect(await events()).toBe(before);
  });

  it('answers admission problems in the envelope, naming the operation when it is one', async () => {
    const unknown = await c.call('palimpsest_change_propose', { request_id: 'x', base: [], operations: [], colour: 'red' });
    expect(unknown).toMatchObject({ status: 'error', error: { code: 'invalid_arguments', reason: 'unknown_argument', details: { unknown_arguments: ['colour'] } } });
    const badOp = await c.propose([[a, 0]], [edit(a, 'alpha', 'x'), { kind: 'edit', target_file_id: a, match: 'beta' }]);
    expect(badOp.error).toMatchObject({ code: 'invalid_arguments', reason: 'schema', operation_index: 1 });
    const many = await c.propose([[a, 0]], Array.from({ length: 51 }, () => edit(a, 'a', 'a', { occurrence_index: 1 })));
    expect(many.error).toMatchObject({ code: 'resource_limit', reason: 'too_many_operations' });
  });

  it('refuses a base that is not the head, an unknown target and an unknown candidate', async () => {
    await h.call('palimpsest_submit_edits', { target_file_id: b, intent: 'direct', expected_target_version: 0, edits: [{ match: 'one', replace: 'uno' }] });
    const stale = await c.propose([[b, 0]], [edit(b, 'two', '2')]);
    expect(stale.error).toMatchObject({ code: 'stale_snapshot', reason: 'base_not_head', details: { moved: [{ target_file_id: b, base_version: 0, current_version: 1 }] } });
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await c.propose([[missing, 0]], [edit(missing, 'x', 'y')])).error).toMatchObject({ code: 'not_found', reason: 'target_unknown' });
    const ghost = await c.propose([[a, 0]], [edit(a, 'beta', 'b')], { candidate: missing, expected_candidate_version: 1 });
    expect(ghost.error).toMatchObject({ code: 'not_found', reason: 'candidate_unknown' });
  });

  it('offers a refused proposal as complete requests: the same operations on the moved base, or each listed occurrence', async () => {
    const t = await h.target('red green red\n');
    await h.call('palimpsest_submit_edits', { target_file_id: t, intent: 'direct', expected_target_version: 0, edits: [{ match: 'green', replace: 'blue' }] });
    const stale = await c.call('palimpsest_change_propose', { request_id: 'na-1', base: [{ target_file_id: t, version: 0 }], operations: [edit(t, 'blue', 'teal')] });
    expect(stale.error.reason).toBe('base_not_head');
    expect(stale.error.next_actions[0]).toEqual({
      operation: 'palimpsest_change_propose',
      reason: expect.any(String),
      params: { request_id: 'na-1~base-1', base: [{ target_file_id: t, version: 1 }], operations: [edit(t, 'blue', 'teal')] },
    });
    const ambiguous = await c.call('palimpsest_change_propose', { request_id: 'na-2', base: [{ target_file_id: t, version: 1 }], operations: [edit(t, 'red', 'pink', { anchor_after: '\n' })] });
    expect(ambiguous.error).toMatchObject({ reason: 'match_ambiguous', operation_index: 0 });
    const choices = ambiguous.error.next_actions.filter((n: { operation: string }) => n.operation === 'palimpsest_change_propose');
    expect(choices.map((n: { params: { operations: { occurrence_index: number }[] } }) => n.params.operations[0])).toEqual([
      edit(t, 'red', 'pink', { occurrence_index: 1 }),
      edit(t, 'red', 'pink', { occurrence_index: 2 }),
    ]);
    expect(ambiguous.error.next_actions.at(-1)).toEqual({ operation: 'palimpsest_find_occurrences', reason: expect.any(String), params: { target_file_id: t, text: 'red' } });
    const followed = expectOk(await c.call(choices[1].operation, choices[1].params));
    expect(followed.operations[0]).toMatchObject({ start: 9, end: 12 });
    expect(inadmissibleActions([stale.error, ambiguous.error])).toEqual([]);
  });

  it('a closed candidate offers the reads of its targets, complete, instead of a propose it cannot fill in', async () => {
    const t = await h.target('closed\n');
    const open = expectOk(await c.propose([[t, 0]], [edit(t, 'closed', 'open')]));
    expectOk(await c.call('palimpsest_change_discard', { candidate: open.candidate.id }));
    const late = await c.propose([[t, 0]], [edit(t, 'open', 'shut')], { candidate: open.candidate.id, expected_candidate_version: 1 });
    expect(late.error).toMatchObject({ reason: 'candidate_closed', next_actions: [{ operation: 'palimpsest_get_target', params: { target_file_id: t } }] });
    expect(inadmissibleActions([late.error])).toEqual([]);
  });

  it('plans the same batch without storing anything', async () => {
    const before = await events();
    const plan = expectOk(await c.call('palimpsest_edit_plan', {
      base: [{ target_file_id: a, version: 0 }],
      operations: [
        { kind: 'span', target_file_id: a, start: 0, end: 0, expected_text: '', replace: 'Title\n', handle: 'title' },
        { kind: 'span', target_file_id: a, range: { handle: 'title' }, replace: '# Title\n' },
      ],
    }));
    expect(plan).toMatchObject({ outcome: 'supported', files: [{ target_file_id: a, change: 'modified' }], suggested_checks: ['utf8'] });
    expect(plan.operations[1]).toMatchObject({ kind: 'span', start: 0, end: 6, written_end: 8 });
    const refused = await c.call('palimpsest_edit_plan', { base: [{ target_file_id: a, version: 0 }], operations: [edit(a, 'zzz', 'y')] });
    expect(refused.error).toMatchObject({ code: 'precondition_failed', reason: 'match_absent', operation_index: 0 });
    expect(await events()).toBe(before);
  });
});
