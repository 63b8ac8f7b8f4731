import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { replayCommandRun } from '@palimpsest/core/command-run/command-run.replay';
import { ALLOW_ALL, type OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { loadCommandRun } from '@palimpsest/projections/command-runs/command-run-store';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { dispatchRequest, type DispatchOptions } from '../dispatch/dispatch';
import { expectPublishedResult } from '../file-tools/test-support/published-result';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';

const policy = (over: Partial<OwnerPolicy>): OwnerPolicy => ({ ...ALLOW_ALL, name: 'test', ...over });

describe(`the command tools, with real processes, on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  const call = async (tool: string, args: unknown, opts: DispatchOptions = {}) => {
    const answer = (await dispatchRequest(h.ctx, tool, args, opts)) as Record<string, any>;
    expectPublishedResult(tool, answer);
    return answer;
  };
  const stream = async (runId: string) => (await loadCommandRun(h.ctx.db, runId)).events;
  const types = async (runId: string) => (await stream(runId)).map((e) => e.type);

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-commands-');
  });
  afterEach(() => h.ctx.commands.stop());
  afterAll(() => h.dispose());

  it('run_command answers stdout, stderr and the exit code, and the run is on the record and replays', async () => {
    const a = await call('run_command', { command: 'node --version' });
    expect(a).toMatchObject({ status: 'ok', command: 'node --version', exitCode: 0, stdout: `${process.version}\n`, stderr: '', truncated: false, timedOut: false, signal: null });
    const events = await stream(a.runId);
    expect(events.map((e) => e.type)).toEqual(['CommandRequested', 'CommandStarted', 'CommandExited']);
    expect(events[0].data).toMatchObject({ tool: 'run_command', decision: { verdict: 'run', argv: ['node', '--version'], shell: null }, caller: { policy: 'full', profile: 'full' } });
    expect(events[2].data).toMatchObject({ exit_code: 0, stdout: { bytes: process.version.length + 1, tail: `${process.version}\n` } });
    expect(replayCommandRun(a.runId, events)).toMatchObject({ ok: true, events: 3 });
  });

  it('run_command stops a command at its timeout', async () => {
    const a = await call('run_command', { command: 'sleep 100', timeoutMs: 1000 });
    expect(a).toMatchObject({ status: 'ok', exitCode: null, signal: 'SIGTERM', timedOut: true });
    expect(await types(a.runId)).toEqual(['CommandRequested', 'CommandStarted', 'CommandKilled', 'CommandExited']);
  });

  it.each([
    ['node -e "require(`fs`).writeFileSync(`marker-1`,``)"'],
    ['touch marker-2; true'],
    ['touch marker-3 && true'],
    ['true | touch marker-4'],
    ['touch $(echo marker-5)'],
  ])('the gate refuses shell syntax under the full profile (no shell), names its rule and runs nothing: %s', async (command) => {
    const a = await call('run_command', { command });
    expect(a).toMatchObject({ status: 'rejected', code: 'FORBIDDEN', answer: 'FORBIDDEN', rule: expect.stringMatching(/^shell: /) });
    expect(await types(a.runId)).toEqual(['CommandRequested', 'CommandRefused']);
    for (let i = 1; i <= 5; i++) expect(existsSync(join(h.dir, `marker-${i}`))).toBe(false);
  });

  it('a read-only policy, a deny rule (by program name, whatever its directory) and an allow list refuse', async () => {
    expect(await call('run_command', { command: 'touch marker' }, { policy: policy({ mode: 'read_only' }) })).toMatchObject({ code: 'operation_not_permitted', answer: 'FORBIDDEN' });
    expect(await call('run_command', { command: '/usr/bin/touch marker' }, { policy: policy({ deny: ['touch'] }) })).toMatchObject({ code: 'FORBIDDEN', rule: 'deny[0]: touch' });
    const list = policy({ mode: 'allow_list', allow: ['node --version', 'git status'] });
    expect(await call('run_command', { command: 'touch marker' }, { policy: list })).toMatchObject({ code: 'FORBIDDEN', rule: 'mode: allow_list' });
    expect(await call('run_command', { command: 'node --version' }, { policy: list })).toMatchObject({ status: 'ok', exitCode: 0 });
    expect(existsSync(join(h.dir, 'marker'))).toBe(false);
  });

  it('a read-only session is not served a command tool', async () => {
    expect(await call('run_command', { command: 'node --version' }, { readOnly: true })).toMatchObject({ status: 'invalid_argument' });
    expect(await call('start_command', { command: 'sleep 1' }, { readOnly: true })).toMatchObject({ status: 'invalid_argument' });
  });

  it('commands run at the root only: another cwd is refused', async () => {
    expect(await call('run_command', { command: 'pwd', cwd: 'src' })).toMatchObject({ status: 'invalid_argument', code: 'cwd_not_supported', answer: 'INVALID_ARGUMENTS' });
    expect(await call('run_command', { command: 'pwd', cwd: '.' })).toMatchObject({ status: 'ok', exitCode: 0 });
  });

  it('start, read with a bounded wait, send input, kill: each step on the record', async () => {
    const started = await call('start_command', { command: 'cat' });
    expect(started).toMatchObject({ status: 'ok', command: 'cat', pid: expect.any(Number) });
    const id = started.processId;
    expect(await call('get_command_output', { processId: id, waitMs: 50 })).toMatchObject({ status: 'ok', chunk: '', nextCursor: 0, skipped: false, running: true, exitCode: null });
    expect(await call('send_command_input', { processId: id, data: 'hello' })).toEqual({ status: 'ok', processId: id, bytesWritten: 6 });
    const read = await call('get_command_output', { processId: id, cursor: 0, waitMs: 10_000 });
    expect(read).toMatchObject({ chunk: 'hello\n', nextCursor: 6, running: true });
    expect(await call('kill_command', { processId: id })).toMatchObject({ status: 'ok', processId: id, killed: true, exitCode: null, signal: 'SIGTERM' });
    expect(await call('kill_command', { processId: id })).toMatchObject({ status: 'ok', killed: false });
    expect(await call('get_command_output', { processId: id, cursor: 6 })).toMatchObject({ chunk: '', running: false });
    expect(await call('send_command_input', { processId: id, data: 'late' })).toMatchObject({ status: 'rejected', code: 'process_not_running' });
    const events = await stream(id);
    expect(events.map((e) => e.type)).toEqual(['CommandRequested', 'CommandStarted', 'CommandInputSent', 'CommandKilled', 'CommandExited']);
    expect(events[2].data).toMatchObject({ bytes: 6, sha256: '5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03' });
    expect(replayCommandRun(id, events)).toMatchObject({ ok: true });
  });

  it('input under an allow list is refused; an unknown handle is not found', async () => {
    const started = await call('start_command', { command: 'cat' });
    expect(await call('send_command_input', { processId: started.processId, data: 'x' }, { policy: policy({ mode: 'allow_list', allow: ['cat'] }) })).toMatchObject({ code: 'FORBIDDEN' });
    for (const tool of ['get_command_output', 'kill_command']) {
      expect(await call(tool, { processId: 'nope' })).toMatchObject({ status: 'not_found', code: 'PROCESS_NOT_FOUND' });
    }
  });

  it('refuses the ninth live process, and records the refusal', async () => {
    for (let i = 0; i < 8; i++) expect(await call('start_command', { command: 'sleep 100' })).toMatchObject({ status: 'ok' });
    const ninth = await call('start_command', { command: 'sleep 100' });
    expect(ninth).toMatchObject({ status: 'rejected', code: 'too_many_processes' });
    expect(await types(ninth.runId)).toEqual(['CommandRequested', 'CommandRefused']);
    const live = [...h.ctx.commands.runs.values()].filter((r) => r.process.running).map((r) => r.record.runId);
    expect(live).toHaveLength(8);
    await h.ctx.commands.stop();
    for (const id of live) expect((await stream(id)).map((e) => e.type)).toEqual(['CommandRequested', 'CommandStarted', 'CommandKilled', 'CommandExited']);
    expect((await stream(live[0]))[2].data).toMatchObject({ reason: 'service_stop' });
  });

  it('a command that cannot be spawned is refused and recorded', async () => {
    const a = await call('run_command', { command: 'no-such-program-here' });
    expect(a).toMatchObject({ status: 'rejected', code: 'spawn_failed', answer: 'TOOL_FAILED' });
    expect(await types(a.runId)).toEqual(['CommandRequested', 'CommandRefused']);
  });
});
