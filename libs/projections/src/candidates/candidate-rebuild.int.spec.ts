import { decideApproval, listApprovals } from '@palimpsest/application/candidates/approvals/approvals.handler';
import { candidateCalls, edit, expectOk, until } from '@palimpsest/application/candidates/test-support/candidate-harness';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { DEFAULTS } from '@palimpsest/application/candidates/shared/candidate-config';
import { dispatch } from '@palimpsest/application/dispatch/dispatch';
import { createAppHarness, type AppHarness } from '@palimpsest/application/test-support/app-harness';
import { ALLOW_ALL } from '@palimpsest/core/policy/owner-policy';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { rebuildProjections } from '../rebuild/rebuild-projections';
import { CANDIDATE_TABLES } from './candidate.projection';

const ORDER: Record<(typeof CANDIDATE_TABLES)[number], string> = {
  candidates: 'candidate_id',
  candidate_targets: 'candidate_id, target_id',
  candidate_checks: 'candidate_id, candidate_version, check_name',
  candidate_requests: 'request_id',
  approvals: 'approval_id',
};

describe(`rebuilding the candidate read model on ${describeBackend}`, () => {
  let h: AppHarness;
  const dump = async () => {
    const out: Record<string, unknown[]> = {};
    for (const table of CANDIDATE_TABLES) out[table] = (await h.testDb.db.query(`SELECT * FROM ${table} ORDER BY ${ORDER[table]}`)).rows;
    return out;
  };

  beforeAll(async () => {
    h = await createAppHarness();
    const c = candidateCalls(h);
    const reviewed = candidateCalls(h, { ...ALLOW_ALL, name: 'reviewed', approve: true });
    const [a, b, j] = [await h.target('alpha beta\n'), await h.target('one\n'), await h.target('{"n": 1}\n', 'n.json')];
    const open = expectOk(await c.propose([[a, 0], [j, 0]], [edit(j, '1', '2')], { checks: ['json', 'utf8'], intent: 'open one' }));
    expectOk(await c.propose([[a, 0], [b, 0]], [edit(a, 'beta', 'gamma')], { candidate: open.candidate.id, expected_candidate_version: 1 }));
    const discarded = expectOk(await c.propose([[b, 0]], [edit(b, 'one', 'two')]));
    expectOk(await c.call('palimpsest_change_discard', { candidate: discarded.candidate.id }));
    const applied = expectOk(await c.propose([[b, 0]], [edit(b, 'one', 'uno')]));
    const loser = expectOk(await c.propose([[b, 0]], [edit(b, 'one', 'eins')]));
    h.ctx.candidates.approvalWaitMs = 20_000;
    const applying = reviewed.apply(applied.candidate.id, 1);
    const pending = await until(async () => (await listApprovals(h.ctx.db))[0] ?? Promise.reject(new Error('none')));
    expectOk(await decideApproval(h.ctx, { approval_id: pending.approval_id, decision: 'grant', decided_by: 'ops', note: 'ok' }));
    expectOk(await applying);
    h.ctx.candidates.approvalWaitMs = DEFAULTS.approvalWaitMs;
    expect((await c.apply(loser.candidate.id, 1)).error).toMatchObject({ reason: 'concurrent_candidate' });
    const declined = expectOk(await c.propose([[b, 1]], [edit(b, 'uno', 'dos')]));
    h.ctx.candidates.approvalWaitMs = 50;
    expect((await reviewed.apply(declined.candidate.id, 1)).error).toMatchObject({ reason: 'approval_timeout' });
    h.ctx.candidates.approvalWaitMs = DEFAULTS.approvalWaitMs;
    const [waiting] = await listApprovals(h.ctx.db);
    expectOk(await decideApproval(h.ctx, { approval_id: waiting.approval_id, decision: 'decline', decided_by: 'ops' }));
    const lapsing = expectOk(await c.propose([[a, 0]], [edit(a, 'alpha', 'omega')]));
    const later = appContext(h.testDb.db, { contents: h.ctx.contents, clock: { now: () => '2999-01-01T00:00:00.000Z' } });
    await dispatch(later, 'palimpsest_change_discard', { candidate: lapsing.candidate.id });
  }, 60_000);
  afterAll(() => h.dispose());

  it('reproduces every candidate table row for row, and the digests say so', async () => {
    const before = await dump();
    expect((before.candidates as { state: string }[]).map((r) => r.state).sort()).toEqual(['applied', 'discarded', 'expired', 'open', 'open', 'open']);
    expect(before.approvals).toHaveLength(2);
    const report = await rebuildProjections(h.testDb.db);
    expect(report).toMatchObject({ equal: true, differing: [], missing: [], extra: [] });
    expect(report.compared).toBe(3 + 6);
    expect(await dump()).toEqual(before);
  });

  it('notices a tampered candidate row and rebuild repairs it', async () => {
    const before = await dump();
    const [{ candidate_id }] = (await h.testDb.db.query(`SELECT candidate_id::text AS candidate_id FROM candidates WHERE state = 'applied'`)).rows;
    await h.testDb.db.query(`UPDATE candidates SET state = 'open' WHERE candidate_id = $1`, [candidate_id]);
    expect(await rebuildProjections(h.testDb.db)).toMatchObject({ equal: false, differing: [`candidate:${candidate_id}`] });
    expect(await dump()).toEqual(before);
  });
});
