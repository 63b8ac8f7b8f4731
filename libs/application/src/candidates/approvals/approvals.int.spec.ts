import { ALLOW_ALL, type OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { createAppHarness, type AppHarness } from '../../test-support/app-harness';
import { candidateCalls, edit, expectOk, until } from '../test-support/candidate-harness';
import { DEFAULTS } from '../shared/candidate-config';
import { dispatch } from '../../dispatch/dispatch';
import { decideApproval, listApprovals } from './approvals.handler';

const REVIEWED: OwnerPolicy = { ...ALLOW_ALL, name: 'reviewed', approve: true };

describe(`approvals on ${describeBackend}`, () => {
  let h: AppHarness;
  let c: ReturnType<typeof candidateCalls>;

  beforeAll(async () => {
    h = await createAppHarness();
    c = candidateCalls(h, REVIEWED);
  });
  /** The waits this test's operations see (candidate settings are the context's, read once at start). */
  const waits = (approvalWaitMs: number, approvalPollMs: number) => Object.assign(h.ctx.candidates, { approvalWaitMs, approvalPollMs });
  afterEach(() => waits(DEFAULTS.approvalWaitMs, DEFAULTS.approvalPollMs));
  afterAll(() => h.dispose());

  async function candidate(text: string) {
    const id = await h.target(text);
    const p = expectOk(await c.propose([[id, 0]], [edit(id, text.trim(), 'changed')]));
    return { target: id, candidate: p.candidate.id as string };
  }
  const pendingFor = async (candidateId: string) => {
    const found = (await listApprovals(h.ctx.db)).find((a) => a.candidate === candidateId);
    if (!found) throw new Error('no pending approval yet');
    return found;
  };

  it('waits for an operator; a grant wakes the apply at once (NOTIFY), which then applies', async () => {
    waits(20000, 15000);
    const { target, candidate: id } = await candidate('first\n');
    const applying = c.apply(id, 1);
    const pending = await until(() => pendingFor(id));
    expect(pending).toMatchObject({ status: 'pending', candidate_version: 1, policy: 'reviewed', candidate_state: 'open' });
    expect(pending.prompt).toContain(`Apply candidate ${id} version 1`);
    const started = Date.now();
    expectOk(await decideApproval(h.ctx, { approval_id: pending.approval_id, decision: 'grant', decided_by: 'ops@example', note: 'fine' }));
    const applied = expectOk(await applying);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(applied.receipt).toMatchObject({ outcome: 'applied', approval_id: pending.approval_id });
    expect(await c.content(target)).toMatchObject({ version: 1, text: 'changed\n' });
    expect((await listApprovals(h.ctx.db, { status: 'granted' })).map((a) => a.approval_id)).toContain(pending.approval_id);
  });

  const eventTypes = async (candidateId: string) =>
    (await h.ctx.db.query<{ event_type: string }>('SELECT event_type FROM events WHERE stream_id = $1 ORDER BY stream_version', [`candidate-${candidateId}`])).rows.map((r) => r.event_type);

  it('a caller that cancels while it waits withdraws its approval: recorded, a later grant writes nothing, the same request answers CANCELLED', async () => {
    waits(20000, 15000);
    const { target, candidate: id } = await candidate('cancelled\n');
    const args = { candidate: id, expected_candidate_version: 1, request_id: 'cancel-me' };
    const caller = new AbortController();
    const applying = dispatch(h.ctx, 'palimpsest_change_apply', args, { policy: REVIEWED, signal: caller.signal }) as Promise<Record<string, any>>;
    const pending = await until(() => pendingFor(id));
    caller.abort();
    const answer = await applying;
    expect(answer.error).toMatchObject({ code: 'permission_denied', reason: 'approval_withdrawn', retryable: 'none', details: { answer: 'CANCELLED', approval_id: pending.approval_id } });
    expect(await eventTypes(id)).toEqual(['CandidateProposed', 'ApprovalRequested', 'ApprovalWithdrawn', 'CandidateDiscarded']);
    expect(await listApprovals(h.ctx.db)).toEqual([]);
    expect((await listApprovals(h.ctx.db, { status: 'withdrawn' })).find((a) => a.approval_id === pending.approval_id)).toMatchObject({ status: 'withdrawn', candidate_state: 'discarded', decided_by: 'caller' });
    const late = await decideApproval(h.ctx, { approval_id: pending.approval_id, decision: 'grant', decided_by: 'ops' });
    expect(late.error).toMatchObject({ reason: 'approval_decided', details: { status: 'withdrawn' } });
    expect((await c.call('palimpsest_change_apply', args)).error).toMatchObject({ reason: 'approval_withdrawn', details: { answer: 'CANCELLED' } });
    expect(await c.content(target)).toMatchObject({ version: 0, text: 'cancelled\n' });
  });

  it('a cancel that comes after the grant committed changes nothing: the write stands and the same request answers it', async () => {
    waits(20000, 15000);
    const { target, candidate: id } = await candidate('granted\n');
    const args = { candidate: id, expected_candidate_version: 1, request_id: 'cancel-too-late' };
    const caller = new AbortController();
    const applying = dispatch(h.ctx, 'palimpsest_change_apply', args, { policy: REVIEWED, signal: caller.signal }) as Promise<Record<string, any>>;
    const pending = await until(() => pendingFor(id));
    expectOk(await decideApproval(h.ctx, { approval_id: pending.approval_id, decision: 'grant', decided_by: 'ops' }));
    caller.abort();
    const applied = expectOk(await applying);
    expect(applied.receipt).toMatchObject({ outcome: 'applied', approval_id: pending.approval_id });
    expect(expectOk(await c.call('palimpsest_change_apply', args))).toEqual({ ...applied, replayed: true });
    expect(await eventTypes(id)).not.toContain('ApprovalWithdrawn');
    expect(await c.content(target)).toMatchObject({ version: 1, text: 'changed\n' });
  });

  it('a decline is final: this request and any other get permission_denied / approval_declined', async () => {
    waits(20000, 200);
    const { target, candidate: id } = await candidate('second\n');
    const applying = c.apply(id, 1);
    const pending = await until(() => pendingFor(id));
    expectOk(await decideApproval(h.ctx, { approval_id: pending.approval_id, decision: 'decline', decided_by: 'ops', note: 'no' }));
    const declined = await applying;
    expect(declined.error).toMatchObject({ code: 'permission_denied', reason: 'approval_declined', retryable: 'none', details: { answer: 'APPROVAL_DECLINED' } });
    expect((await c.apply(id, 1)).error).toMatchObject({ reason: 'approval_declined' });
    expect(await h.count('SELECT count(*) FROM approvals WHERE candidate_id = $1', [id])).toBe(1);
    expect(await c.content(target)).toMatchObject({ version: 0 });
    const twice = await decideApproval(h.ctx, { approval_id: pending.approval_id, decision: 'grant', decided_by: 'ops' });
    expect(twice.error).toMatchObject({ code: 'precondition_failed', reason: 'approval_decided' });
  });

  it('times out with APPROVAL_TIMEOUT; resending the same request_id later picks up the decision', async () => {
    waits(300, 50);
    const { target, candidate: id } = await candidate('third\n');
    const args = { candidate: id, expected_candidate_version: 1, request_id: 'approve-later' };
    const timedOut = await c.call('palimpsest_change_apply', args);
    expect(timedOut.error).toMatchObject({
      code: 'permission_denied', reason: 'approval_timeout', retryable: 'same_request', details: { answer: 'APPROVAL_TIMEOUT' },
      next_actions: [{ operation: 'palimpsest_change_apply', params: args }],
    });
    const pending = await pendingFor(id);
    expectOk(await decideApproval(h.ctx, { approval_id: pending.approval_id, decision: 'grant', decided_by: 'ops' }));
    const applied = expectOk(await c.call('palimpsest_change_apply', args));
    expect(applied).toMatchObject({ replayed: false, receipt: { request_id: 'approve-later', approval_id: pending.approval_id } });
    expect(expectOk(await c.call('palimpsest_change_apply', args))).toEqual({ ...applied, replayed: true });
    expect(await c.content(target)).toMatchObject({ version: 1 });
    expect(await listApprovals(h.ctx.db)).toEqual([]);
  });

  it('refuses unknown approvals', async () => {
    expect((await decideApproval(h.ctx, { approval_id: 'nope', decision: 'grant', decided_by: 'ops' })).error).toMatchObject({ code: 'not_found', reason: 'approval_unknown' });
  });
});
