import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { replayCommandRun } from '@palimpsest/core/command-run/command-run.replay';
import { ALLOW_ALL, type OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { loadCommandRun } from '@palimpsest/projections/command-runs/command-run-store';
import { archiveBefore } from '@palimpsest/store/log-archive';
import { rollLog } from '@palimpsest/store/log-partitions';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { decideApproval } from '../candidates/approvals/approvals.handler';
import { listCommandApprovals } from '../candidates/approvals/command-approvals';
import { DEFAULTS } from '../candidates/shared/candidate-config';
import { until } from '../candidates/test-support/candidate-harness';
import { dispatchRequest } from '../dispatch/dispatch';
import { expectPublishedResult } from '../file-tools/test-support/published-result';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';

const REVIEWED: OwnerPolicy = { ...ALLOW_ALL, name: 'reviewed', approve: true };

describe(`command runs under approve, with real processes, on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  const call = async (tool: string, args: unknown) => {
    const answer = (await dispatchRequest(h.ctx, tool, args, { policy: REVIEWED })) as Record<string, any>;
    expectPublishedResult(tool, answer);
    return answer;
  };
  const waits = (approvalWaitMs: number, approvalPollMs: number) => Object.assign(h.ctx.candidates, { approvalWaitMs, approvalPollMs });
  const pendingFor = async (command: string) => {
    const found = (await listCommandApprovals(h.ctx.db)).find((a) => a.command === command);
    if (!found) throw new Error(`no pending approval of ${command} yet`);
    return found;
  };
  const stream = async (runId: string) => (await loadCommandRun(h.ctx.db, runId)).events;

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-command-approvals-');
  });
  afterEach(async () => {
    waits(DEFAULTS.approvalWaitMs, DEFAULTS.approvalPollMs);
    await h.ctx.commands.stop();
  });
  afterAll(() => h.dispose());

  it('a grant runs the command: nothing ran before it, and the request and grant are on the run stream', async () => {
    waits(20_000, 15_000);
    const running = call('run_command', { command: 'touch marker-granted' });
    const pending = await until(() => pendingFor('touch marker-granted'));
    expect(pending).toMatchObject({ status: 'pending', rule: 'approve: true', prompt: expect.stringContaining('touch marker-granted') });
    expect(existsSync(join(h.dir, 'marker-granted'))).toBe(false);
    expect(await decideApproval(h.ctx, { approval_id: pending.approval_id, decision: 'grant', decided_by: 'ops@example', note: 'fine' })).toMatchObject({
      status: 'ok',
      command_approval: { status: 'granted', decided_by: 'ops@example', note: 'fine' },
    });
    const a = await running;
    expect(a).toMatchObject({ status: 'ok', exitCode: 0, runId: pending.run_id });
    expect(existsSync(join(h.dir, 'marker-granted'))).toBe(true);
    const events = await stream(a.runId);
    expect(events.map((e) => e.type)).toEqual(['CommandRequested', 'CommandApprovalRequested', 'CommandApproved', 'CommandStarted', 'CommandExited']);
    expect(replayCommandRun(a.runId, events)).toMatchObject({ ok: true, events: 5 });
    expect(await decideApproval(h.ctx, { approval_id: pending.approval_id, decision: 'decline', decided_by: 'ops' })).toMatchObject({ error: { reason: 'approval_decided' } });
  });

  it('a decline answers APPROVAL_DECLINED and nothing runs; start_command waits the same way', async () => {
    waits(20_000, 15_000);
    const asked = call('start_command', { command: 'touch marker-declined' });
    const pending = await until(() => pendingFor('touch marker-declined'));
    expect(await decideApproval(h.ctx, { approval_id: pending.approval_id, decision: 'decline', decided_by: 'ops', note: 'not now' })).toMatchObject({ status: 'ok', command_approval: { status: 'declined' } });
    const a = await asked;
    expect(a).toMatchObject({ status: 'rejected', code: 'APPROVAL_DECLINED', answer: 'APPROVAL_DECLINED', rule: 'approve: true', runId: pending.run_id });
    const events = await stream(a.runId);
    expect(events.map((e) => e.type)).toEqual(['CommandRequested', 'CommandApprovalRequested', 'CommandDeclined', 'CommandRefused']);
    expect(events[3].data).toMatchObject({ code: 'APPROVAL_DECLINED', reason: 'ops declined the run: not now' });
    expect(replayCommandRun(a.runId, events)).toMatchObject({ ok: true });
    expect(existsSync(join(h.dir, 'marker-declined'))).toBe(false);
  });

  it('no decision in time answers APPROVAL_TIMEOUT, recorded; nothing runs and a late grant changes nothing', async () => {
    waits(300, 100);
    const a = await call('run_command', { command: 'touch marker-late' });
    expect(a).toMatchObject({ status: 'rejected', code: 'APPROVAL_TIMEOUT', answer: 'APPROVAL_TIMEOUT', rule: 'approve: true' });
    const events = await stream(a.runId);
    expect(events.map((e) => e.type)).toEqual(['CommandRequested', 'CommandApprovalRequested', 'CommandRefused']);
    expect(events[2].data).toMatchObject({ code: 'APPROVAL_TIMEOUT', rule: 'approve: true' });
    expect(replayCommandRun(a.runId, events)).toMatchObject({ ok: true });
    const [late] = (await listCommandApprovals(h.ctx.db, { status: 'timed_out' })).filter((r) => r.run_id === a.runId);
    expect(await decideApproval(h.ctx, { approval_id: late.approval_id, decision: 'grant', decided_by: 'ops' })).toMatchObject({ error: { reason: 'approval_decided', details: { status: 'timed_out' } } });
    expect(existsSync(join(h.dir, 'marker-late'))).toBe(false);
    expect((await listCommandApprovals(h.ctx.db)).filter((r) => r.run_id === a.runId)).toEqual([]);
  });

  it('lists the same approvals once their runs are archived', async () => {
    const every = await listCommandApprovals(h.ctx.db, { status: 'all' });
    expect(every.map((r) => r.status).sort()).toEqual(['declined', 'granted', 'timed_out']);
    await rollLog(h.ctx.db);
    expect((await archiveBefore(h.ctx.db, { beforePosition: Number.MAX_SAFE_INTEGER })).length).toBeGreaterThan(0);
    expect(await listCommandApprovals(h.ctx.db, { status: 'all' })).toEqual(every);
  });
});
