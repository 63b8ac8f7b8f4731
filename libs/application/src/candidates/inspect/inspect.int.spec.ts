import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatchRequest as dispatch } from '../../dispatch/dispatch';
import { createAppHarness, type AppHarness } from '../../test-support/app-harness';
import { candidateCalls, edit, expectOk, type Answer } from '../test-support/candidate-harness';

describe(`palimpsest_change_inspect, discard and expiry on ${describeBackend}`, () => {
  let h: AppHarness;
  let c: ReturnType<typeof candidateCalls>;
  beforeAll(async () => {
    h = await createAppHarness();
    c = candidateCalls(h);
  });
  afterAll(() => h.dispose());

  it('shows changed spans with the operations behind them, a bounded unified diff, content and checks', async () => {
    const text = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const a = await h.target(text);
    const b = await h.target('untouched\n');
    const p = expectOk(await c.propose([[a, 0], [b, 0]], [edit(a, 'line 2\n', 'line two\n'), edit(a, 'line 15', 'line fifteen\r\nand more')], { checks: ['utf8'] }));
    expectOk(await c.propose([[a, 0]], [edit(a, 'line two', 'line 2!')], { candidate: p.candidate.id, expected_candidate_version: 1 }));
    const r = expectOk(await c.call('palimpsest_change_inspect', { candidate: p.candidate.id, include: ['semantic_diff', 'source_diff', 'content', 'checks'], context_lines: 1 }));
    const [ta, tb] = r.targets;
    expect(ta.semantic_diff).toEqual([
      expect.objectContaining({ change: 'added', before: '', after: '!', operations: [{ candidate_version: 1, index: 0 }, { candidate_version: 2, index: 0 }], expected: true }),
      expect.objectContaining({ change: 'modified', before: '15', after: 'fifteen\nand more', expected: false }),
    ]);
    expect(ta.source_diff.hunks).toEqual([
      { old_start: 2, old_lines: 3, new_start: 2, new_lines: 3, lines: [' line 1', '-line 2', '+line 2!', ' line 3'], omitted_lines: 0 },
      { old_start: 15, old_lines: 3, new_start: 15, new_lines: 4, lines: [' line 14', '-line 15', '+line fifteen', '+and more', ' line 16'], omitted_lines: 0 },
    ]);
    expect(ta.content).toBe(text.replace('line 2\n', 'line 2!\n').replace('line 15', 'line fifteen\nand more'));
    expect(tb).toMatchObject({ change: 'unchanged', semantic_diff: [], source_diff: { hunks: [] }, content: 'untouched\n' });
    expect(r.checks).toEqual([]); // the utf8 check ran on version 1; the current version is 2
    const only = expectOk(await c.call('palimpsest_change_inspect', { candidate: p.candidate.id, targets: [b], include: ['content'] }));
    expect(only.targets.map((t: Answer) => t.target_file_id)).toEqual([b]);
    const stranger = await c.call('palimpsest_change_inspect', { candidate: p.candidate.id, targets: ['00000000-0000-4000-8000-000000000000'] });
    expect(stranger.error).toMatchObject({ code: 'invalid_arguments', reason: 'target_not_in_candidate' });
  });

  it('discards an open candidate; it stays readable, and never undoes an applied one', async () => {
    const a = await h.target('keep\n');
    const p = expectOk(await c.propose([[a, 0]], [edit(a, 'keep', 'drop')]));
    expect((await c.call('palimpsest_change_discard', { candidate: p.candidate.id, expected_candidate_version: 2 })).error).toMatchObject({ reason: 'candidate_version_mismatch' });
    expect(expectOk(await c.call('palimpsest_change_discard', { candidate: p.candidate.id, expected_candidate_version: 1 }))).toMatchObject({ released: true, candidate: { state: 'discarded' } });
    expect(expectOk(await c.call('palimpsest_change_inspect', { candidate: p.candidate.id })).candidate.state).toBe('discarded');
    expect((await c.apply(p.candidate.id, 1)).error).toMatchObject({ code: 'precondition_failed', reason: 'candidate_closed' });
    const q = expectOk(await c.propose([[a, 0]], [edit(a, 'keep', 'kept')]));
    expectOk(await c.apply(q.candidate.id, 1));
    expect((await c.call('palimpsest_change_discard', { candidate: q.candidate.id })).error).toMatchObject({ reason: 'candidate_applied' });
    expect(await c.content(a)).toMatchObject({ text: 'kept\n' });
  });

  it('expires after its TTL: reads answer snapshot_expired, the first write records CandidateExpired, discard answers not_found', async () => {
    const a = await h.target('soon\n');
    const p = expectOk(await c.propose([[a, 0]], [edit(a, 'soon', 'late')]));
    const later = appContext(h.testDb.db, { contents: h.ctx.contents, clock: { now: () => new Date(Date.parse(p.candidate.expires_at) + 1000).toISOString() } });
    const call = (name: string, args: unknown) => dispatch(later, name, args) as Promise<Answer>;
    const inspect = await call('palimpsest_change_inspect', { candidate: p.candidate.id });
    expect(inspect.error).toMatchObject({ code: 'snapshot_expired', reason: 'candidate_expired', retryable: 'after_refresh' });
    expect(await h.count(`SELECT count(*) FROM events WHERE event_type = 'CandidateExpired'`)).toBe(0);
    const apply = await call('palimpsest_change_apply', { candidate: p.candidate.id, expected_candidate_version: 1, request_id: 'late-apply' });
    expect(apply.error).toMatchObject({ code: 'snapshot_expired', reason: 'candidate_expired' });
    expect(await h.count(`SELECT count(*) FROM candidates WHERE candidate_id = $1 AND state = 'expired'`, [p.candidate.id])).toBe(1);
    expect((await c.call('palimpsest_change_discard', { candidate: p.candidate.id })).error).toMatchObject({ code: 'not_found', reason: 'candidate_expired' });
    expect(await c.content(a)).toMatchObject({ version: 0 });
  });
});
