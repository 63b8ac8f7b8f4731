import { OP } from '@palimpsest/core/errors/operation-names.generated';
import { dispatchRequest } from '../../dispatch/dispatch';
import { loadCommandRun } from '@palimpsest/projections/command-runs/command-run-store';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { groupMembers } from '@palimpsest/workspace/process/process-group';
import { DirectLauncher } from '@palimpsest/workspace/process/process-launcher';
import { RunRecord } from '../shared/run-record';
import { createWorkspaceHarness, type WorkspaceHarness } from '../../test-support/workspace-harness';
import { settleRunsLeftByACrash } from './crash-cleanup';
import { running, waitFor } from '@palimpsest/workspace/test-support/process-watch';

describe(`the restart's cleanup of a run whose start was not yet recorded, on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-crash-cleanup-');
  });
  afterAll(() => h.dispose());

  /** A run requested (the policy let it run) and nothing after: the service died before the start went out. */
  const requested = async (command: string): Promise<string> => {
    const runId = h.ctx.ids.next();
    const record = new RunRecord(h.ctx, runId, {});
    const decision = { verdict: 'run' as const, rule: null, reason: null, argv: null, shell: command };
    await record.record({ type: 'RequestCommand', tool: OP.start_command, command, timeout_ms: null, decision, caller: { policy: 'full', profile: 'full', correlation_id: null } });
    return runId;
  };

  it("finds the run's processes by its marker, stops their group, and settles the run once", async () => {
    const runId = await requested('sleep 100 & sleep 100');
    const orphan = await new DirectLauncher(process.env).launch({ id: runId, file: '/bin/sh', args: ['-c', 'sleep 100 & sleep 100'], cwd: h.ctx.workspace!.path, stdin: false });
    orphan.stdout?.resume();
    orphan.stderr?.resume();
    await waitFor(() => groupMembers(orphan.pid).length >= 2);
    const members = groupMembers(orphan.pid);
    const never = await requested('true'); // requested, then the service died before it ran

    const lines: string[] = [];
    const settled = await settleRunsLeftByACrash(h.ctx, (line) => lines.push(line));
    expect(settled).toEqual(expect.arrayContaining([{ run_id: runId, command: 'sleep 100 & sleep 100', outcome: 'terminated' }, { run_id: never, command: 'true', outcome: 'gone' }]));
    for (const pid of members) expect(running(pid)).toBe(false);
    expect(lines.find((l) => l.includes(runId))).toMatch(new RegExp(`outcome unknown at crash; its process group ${orphan.pid} was terminated`));
    expect(lines.find((l) => l.includes(never))).toMatch(/its processes were already gone/);
    expect((await loadCommandRun(h.ctx.db, runId)).events.map((e) => e.type)).toEqual(['CommandRequested', 'CommandKilled']);
    expect(await settleRunsLeftByACrash(h.ctx)).toEqual([]);
  });

  it('answers the command tools for a run the restart settled from its record, and a run never started as not found', async () => {
    const runId = await requested('sleep 100');
    await settleRunsLeftByACrash(h.ctx);
    const call = (tool: string, args: Record<string, unknown>) => dispatchRequest(h.ctx, tool, { processId: runId, ...args });
    const ended = { processId: runId, exitCode: null, signal: null };
    expect(await call(OP.get_command_output, { cursor: 7 })).toEqual({ status: 'ok', ...ended, chunk: '', nextCursor: 7, skipped: false, skippedBytes: 0, running: false });
    expect(await call(OP.kill_command, {})).toEqual({ status: 'ok', ...ended, killed: false });
    expect(await call(OP.send_command_input, { data: 'y' })).toMatchObject({ status: 'rejected', code: 'process_not_running', failure_detail: `Process ${runId} is not running: it stopped when the process that ran it restarted (nothing of it was left). Nothing was written.` });
    const unended = await requested('sleep 100'); // on the record, not settled: another process's run
    expect(await dispatchRequest(h.ctx, OP.kill_command, { processId: unended })).toMatchObject({ status: 'not_found', code: 'PROCESS_NOT_FOUND', failure_detail: expect.stringMatching(/another Palimpsest process holds it/) });
    expect(await dispatchRequest(h.ctx, OP.get_command_output, { processId: 'cmd-never' })).toMatchObject({ status: 'not_found', code: 'PROCESS_NOT_FOUND', answer: 'INVALID_ARGUMENTS' });
    await settleRunsLeftByACrash(h.ctx);
  });
});
