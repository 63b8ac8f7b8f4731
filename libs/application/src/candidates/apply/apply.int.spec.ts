import { targetStreamId } from '@palimpsest/core/target/target.events';
import type { Db, Tx } from '@palimpsest/store/db';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatch } from '../../dispatch/dispatch';
import { createAppHarness, type AppHarness } from '../../test-support/app-harness';
import { candidateCalls, edit, expectOk } from '../test-support/candidate-harness';
import { withTransactions } from '../test-support/wrapped-db';

/** A Db whose transactions fail when they append to one stream: a failure on that target, mid-apply. */
function failingOn(db: Db, streamId: string): Db {
  const wrap = (tx: Tx): Tx => ({
    query: (text, params) => (params?.[0] === streamId && /INSERT INTO events/.test(text) ? Promise.reject(new Error('injected: disk full')) : tx.query(text, params)),
    exec: (script) => tx.exec(script),
  });
  return withTransactions(db, (fn) => db.transaction((tx) => fn(wrap(tx))));
}

describe(`palimpsest_change_apply on ${describeBackend}`, () => {
  let h: AppHarness;
  let c: ReturnType<typeof candidateCalls>;
  beforeAll(async () => {
    h = await createAppHarness();
    c = candidateCalls(h);
  });
  afterAll(() => h.dispose());

  it('writes every target through the target aggregate (tx/2 spans), replayable, with a receipt', async () => {
    const a = await h.target('alpha beta alpha\n');
    const b = await h.target('x\n');
    const p = expectOk(await c.propose([[a, 0], [b, 0]], [edit(a, 'beta', 'BETA', { rationale: 'shout' }), edit(a, 'alpha', 'A', { occurrence_index: 1 }), { kind: 'replace_all', target_file_id: b, replacement: 'y\n' }]));
    const r = expectOk(await c.call('palimpsest_change_apply', { candidate: p.candidate.id, expected_candidate_version: 1, request_id: 'apply-receipt' }));
    expect(r).toMatchObject({ replayed: false, receipt: { outcome: 'applied', request_id: 'apply-receipt', candidate: p.candidate.id, candidate_version: 1 } });
    expect(r.receipt.targets.map((t: any) => t.target_file_id)).toEqual([a, b].sort());
    expect(await c.content(a)).toMatchObject({ version: 1, text: 'A BETA alpha\n' });
    expect(await c.content(b)).toMatchObject({ version: 1, text: 'y\n' });
    for (const id of [a, b]) expect(await h.call('palimpsest_replay', { target_file_id: id })).toMatchObject({ status: 'success', materialized_state_matches: true });
    const log = await h.call('palimpsest_get_attempt_log', { target_file_id: a, detail: true });
    expect(log.entries[0]).toMatchObject({ status: 'accepted', protocol_version: 'patchdiff-tx/2', runtime_version: 'patchdiff-mvp-0.3.0', source: `candidate:${p.candidate.id}` });
    const ledger = await h.call('palimpsest_get_manifest_ledger', { target_file_id: a });
    expect(ledger.entries.map((e: any) => [e.change_id, e.rationale])).toEqual([['c1_0', 'shout'], ['c1_1', null]]);

    const again = expectOk(await c.call('palimpsest_change_apply', { candidate: p.candidate.id, expected_candidate_version: 1, request_id: 'apply-receipt' }));
    expect(again).toEqual({ ...r, replayed: true });
    const other = await c.apply(p.candidate.id, 1);
    expect(other.error).toMatchObject({ code: 'precondition_failed', reason: 'candidate_applied', retryable: 'none' });
    expect(await c.content(a)).toMatchObject({ version: 1 });
  });

  it('refuses a written target moved by a direct submission (external_write), writing nothing', async () => {
    const a = await h.target('one\n');
    const b = await h.target('two\n');
    const p = expectOk(await c.propose([[a, 0], [b, 0]], [edit(a, 'one', '1'), edit(b, 'two', '2')]));
    await h.call('palimpsest_submit_edits', { target_file_id: b, intent: 'x', expected_target_version: 0, edits: [{ match: 'two', replace: 'deux' }] });
    const r = await c.apply(p.candidate.id, 1);
    expect(r.error).toMatchObject({
      code: 'precondition_failed', reason: 'external_write', retryable: 'after_refresh',
      details: { moved: [{ target_file_id: b, base_version: 0, current_version: 1, moved_by: 'direct_submission' }] },
    });
    expect(await c.content(a)).toMatchObject({ version: 0, text: 'one\n' });
  });

  it('refuses a second candidate on the same base (concurrent_candidate) and reports moved read targets', async () => {
    const a = await h.target('shared\n');
    const r = await h.target('read only\n');
    const first = expectOk(await c.propose([[a, 0]], [edit(a, 'shared', 'first')]));
    const second = expectOk(await c.propose([[a, 0], [r, 0]], [edit(a, 'shared', 'second')]));
    const third = expectOk(await c.propose([[r, 0]], [edit(r, 'read', 'READ')]));
    expectOk(await c.apply(first.candidate.id, 1));
    const refused = await c.apply(second.candidate.id, 1);
    expect(refused.error).toMatchObject({ code: 'conflict', reason: 'concurrent_candidate', retryable: 'after_refresh', details: { moved: [{ target_file_id: a, moved_by: 'candidate', candidate: first.candidate.id }] } });
    const reader = expectOk(await c.propose([[a, 1], [r, 0]], [edit(a, 'first', 'after')]));
    expectOk(await c.apply(third.candidate.id, 1));
    const applied = expectOk(await c.apply(reader.candidate.id, 1));
    expect(applied.base_changes).toEqual([expect.objectContaining({ target_file_id: r, base_version: 0, current_version: 1 })]);
  });

  it('a three-target candidate whose apply fails on its last target leaves all three untouched', async () => {
    const ids = [await h.target('t1\n'), await h.target('t2\n'), await h.target('t3\n')];
    const last = [...ids].sort()[2];
    const p = expectOk(await c.propose(ids.map((id) => [id, 0] as [string, number]), ids.map((id, i) => edit(id, `t${i + 1}`, `T${i + 1}`))));
    const faulty = appContext(failingOn(h.testDb.db, targetStreamId(last)), { contents: h.ctx.contents });
    // The failure is not an answer of the operation: it reaches the transport's one error path (HTTP 500
    // internal or 503 for a lost database, JSON-RPC -32603), like every operation's, after the rollback.
    await expect(dispatch(faulty, 'palimpsest_change_apply', { candidate: p.candidate.id, expected_candidate_version: 1, request_id: 'apply-3' })).rejects.toThrow('injected: disk full');
    for (const [i, id] of ids.entries()) expect(await c.content(id)).toMatchObject({ version: 0, text: `t${i + 1}\n` });
    expect(await h.count('SELECT count(*) FROM attempts WHERE target_id = ANY($1::uuid[])', [ids])).toBe(0);
    expect((await c.call('palimpsest_change_inspect', { candidate: p.candidate.id })).candidate.state).toBe('open');

    await h.call('palimpsest_submit_edits', { target_file_id: last, intent: 'x', expected_target_version: 0, edits: [{ match: 't', replace: 'u' }] });
    const moved = await c.call('palimpsest_change_apply', { candidate: p.candidate.id, expected_candidate_version: 1, request_id: 'apply-3' });
    expect(moved.error).toMatchObject({ code: 'precondition_failed', reason: 'external_write' });
    for (const id of ids.filter((x) => x !== last)) expect(await c.content(id)).toMatchObject({ version: 0 });
  });

  it('requires the named checks to have passed on the exact version', async () => {
    const a = await h.target('{"a": 1}\n', 'a.json');
    const p = expectOk(await c.propose([[a, 0]], [edit(a, '1', '2')]));
    const refused = await c.apply(p.candidate.id, 1, { require_checks: ['json'] });
    expect(refused.error).toMatchObject({ code: 'precondition_failed', reason: 'check_required', details: { missing: ['json'] } });
    expect(refused.error.next_actions[0]).toMatchObject({ operation: 'palimpsest_check_run', params: { candidate: p.candidate.id, checks: ['json'] } });
    expectOk(await c.call('palimpsest_check_run', { candidate: p.candidate.id, checks: ['json'] }));
    const v2 = expectOk(await c.propose([[a, 0]], [edit(a, '2', '3')], { candidate: p.candidate.id, expected_candidate_version: 1 }));
    expect((await c.apply(p.candidate.id, 2, { require_checks: ['json'] })).error).toMatchObject({ reason: 'check_required' });
    expectOk(await c.call('palimpsest_check_run', { candidate: v2.candidate.id, checks: ['json'] }));
    expectOk(await c.apply(p.candidate.id, 2, { require_checks: ['json'] }));
    expect(await c.content(a)).toMatchObject({ text: '{"a": 3}\n' });
  });
});
