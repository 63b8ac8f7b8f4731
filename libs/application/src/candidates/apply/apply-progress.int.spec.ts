import { ALLOW_ALL, type OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { dispatch } from '../../dispatch/dispatch';
import type { ProgressUpdate } from '../../dispatch/operation-handler';
import { createAppHarness, type AppHarness } from '../../test-support/app-harness';
import { decideApproval, listApprovals } from '../approvals/approvals.handler';
import { DEFAULTS } from '../shared/candidate-config';
import { candidateCalls, edit, expectOk, until } from '../test-support/candidate-harness';

const REVIEWED: OwnerPolicy = { ...ALLOW_ALL, name: 'reviewed', approve: true };

describe(`change_apply reports progress while it waits for an approval, on ${describeBackend}`, () => {
  let h: AppHarness;
  let c: ReturnType<typeof candidateCalls>;

  beforeAll(async () => {
    h = await createAppHarness();
    c = candidateCalls(h, REVIEWED);
  });
  afterEach(() => Object.assign(h.ctx.candidates, { approvalWaitMs: DEFAULTS.approvalWaitMs, approvalPollMs: DEFAULTS.approvalPollMs }));
  afterAll(() => h.dispose());

  async function candidate(text: string): Promise<string> {
    const id = await h.target(text);
    return expectOk(await c.propose([[id, 0]], [edit(id, text.trim(), 'changed')])).candidate.id;
  }
  const apply = (id: string, requestId: string, updates: ProgressUpdate[], policy = REVIEWED) =>
    dispatch(h.ctx, 'palimpsest_change_apply', { candidate: id, expected_candidate_version: 1, request_id: requestId }, { policy, progress: { everyMs: 50, report: (u) => void updates.push(u) } });

  it('from the start of the wait, every everyMs, growing, until the decision; nothing after', async () => {
    Object.assign(h.ctx.candidates, { approvalWaitMs: 20_000, approvalPollMs: 5_000 });
    const id = await candidate('waiting\n');
    const updates: ProgressUpdate[] = [];
    const applying = apply(id, 'progress-1', updates);
    const pending = await until(async () => {
      const found = (await listApprovals(h.ctx.db)).find((a) => a.candidate === id);
      if (!found || updates.length < 4) throw new Error('still waiting');
      return found;
    });
    expectOk(await decideApproval(h.ctx, { approval_id: pending.approval_id, decision: 'grant', decided_by: 'ops', note: null }));
    expect(await applying).toMatchObject({ status: 'ok', receipt: { outcome: 'applied' } });
    const reported = updates.length;
    expect(updates[0]).toMatchObject({ total_ms: 20_000, message: expect.stringContaining(`approval ${pending.approval_id} of candidate ${id}`) });
    expect(updates.every((u, i) => i === 0 || u.elapsed_ms >= updates[i - 1]!.elapsed_ms)).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(updates).toHaveLength(reported); // the reporter stopped with the wait
  });

  it('reports nothing when the apply does not wait', async () => {
    const id = await candidate('direct\n');
    const updates: ProgressUpdate[] = [];
    expect(await apply(id, 'progress-2', updates, ALLOW_ALL)).toMatchObject({ status: 'ok', receipt: { outcome: 'applied' } });
    expect(updates).toEqual([]);
  });
});
