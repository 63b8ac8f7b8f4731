import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sessionActivity } from '@palimpsest/projections/command-runs/session-activity.queries';
import { loadCommandRun } from '@palimpsest/projections/command-runs/command-run-store';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { dispatchRequest } from '../dispatch/dispatch';
import { expectPublishedResult } from '../file-tools/test-support/published-result';
import { edit } from '../candidates/test-support/candidate-harness';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';

describe(`one session's edits and command runs share its correlation id, on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  const call = async (tool: string, args: unknown, correlationId: string) => {
    const answer = (await dispatchRequest(h.ctx, tool, args, { correlationId })) as Record<string, any>;
    expectPublishedResult(tool, answer);
    return answer;
  };

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-session-audit-');
  });
  afterEach(() => h.ctx.commands.stop());
  afterAll(() => h.dispose());

  it('an auditor reads: edited a.ts, ran a failing command (exit 1), edited again; another session is not in it', async () => {
    const session = h.ctx.ids.next();
    writeFileSync(join(h.dir, 'a.ts'), 'const a = 1;\n');
    expect(await call('edit_file', { path: 'a.ts', oldString: 'const a = 1;', newString: 'const a = 2;' }, session)).toMatchObject({ status: 'ok' });
    const ran = await call('run_command', { command: 'node -e "process.exit(1)"' }, session);
    expect(ran).toMatchObject({ status: 'ok', exitCode: 1 });
    expect(await call('edit_file', { path: 'a.ts', oldString: 'const a = 2;', newString: 'const a = 3;' }, session)).toMatchObject({ status: 'ok' });
    const other = await call('run_command', { command: 'node --version' }, h.ctx.ids.next());

    const rows = await sessionActivity(h.ctx.db, session);
    const tools = rows.map((r) => r.tool).filter((t, i, all) => t !== all[i - 1]);
    expect(tools).toEqual(['edit_file', 'run_command', 'edit_file']);
    const exited = rows.find((r) => r.event_type === 'CommandExited');
    expect(exited?.data).toMatchObject({ run_id: ran.runId, exit_code: 1 });
    expect(rows.some((r) => r.stream_id.includes(other.runId))).toBe(false);
    const requested = (await loadCommandRun(h.ctx.db, ran.runId)).events[0];
    expect(requested.data).toMatchObject({ caller: { correlation_id: session } });
  });

  it("a candidate's proposal and its apply to a workspace file are in the session that made them", async () => {
    const session = h.ctx.ids.next();
    writeFileSync(join(h.dir, 'b.ts'), 'const b = 1;\n');
    const target = (await call('palimpsest_initialize_target', { filename: 'b.ts', from_workspace: true }, h.ctx.ids.next())).target_file_id;
    const proposed = await call('palimpsest_change_propose', { request_id: 'session-prop', base: [{ target_file_id: target, version: 0 }], operations: [edit(target, 'b = 1', 'b = 2')] }, session);
    const candidate = proposed.candidate.id;
    expect(await call('palimpsest_change_apply', { candidate, expected_candidate_version: 1, request_id: 'session-apply' }, session)).toMatchObject({ status: 'ok' });

    const rows = await sessionActivity(h.ctx.db, session);
    expect(rows.map((r) => [r.tool, r.event_type])).toEqual(
      expect.arrayContaining([
        ['palimpsest_change_propose', 'CandidateProposed'],
        ['palimpsest_change_apply', 'ProposalAccepted'],
        ['palimpsest_change_apply', 'CandidateApplied'],
      ]),
    );
    expect(rows.find((r) => r.event_type === 'ProposalAccepted')?.stream_id).toContain(target);
  });
});
