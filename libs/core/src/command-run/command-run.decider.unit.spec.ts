import type { CommandRunCommand, RequestCommand } from './command-run.commands';
import { decide, evolve } from './command-run.decider';
import type { CommandRunEvent, StreamDigest } from './command-run.events';
import { replayCommandRun } from './command-run.replay';
import { initialCommandRunState, type CommandRunState } from './command-run.state';

const RUN = '00000000-0000-4000-8000-000000000001';
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:00:01.000Z';
const T2 = '2026-01-01T00:00:02.000Z';
const EMPTY: StreamDigest = { sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', bytes: 0, tail: '' };
const caller = { policy: 'full', profile: 'full' as const, correlation_id: null };

const request = (over: Partial<RequestCommand> = {}): RequestCommand => ({
  type: 'RequestCommand',
  run_id: RUN,
  now: T0,
  tool: 'run_command',
  command: 'npm test',
  timeout_ms: 60_000,
  decision: { verdict: 'run', rule: 'allow[0]: npm test', reason: null, argv: ['npm', 'test'], shell: null },
  caller,
  ...over,
});

/** given(events).when(command) → the decision, for .then-style expectations. */
function given(events: CommandRunEvent[]) {
  const state = events.reduce<CommandRunState>(evolve, initialCommandRunState);
  return { when: (command: CommandRunCommand) => decide(command, state), state };
}

const requested = decide(request(), initialCommandRunState);
const requestedEvents = requested.kind === 'accepted' ? requested.events : [];
const started: CommandRunEvent = { type: 'CommandStarted', data: { run_id: RUN, pid: 42, pgid: 42, leader: 'boot:1234', started_at: T1 } };
const exited: CommandRunEvent = {
  type: 'CommandExited',
  data: { run_id: RUN, exit_code: 1, signal: null, duration_ms: 1000, stdout: { ...EMPTY, tail: 'FAIL' }, stderr: EMPTY, exited_at: T2 },
};

describe('command-run decider', () => {
  it('given nothing, when a permitted command is requested, then CommandRequested records the decision and the caller', () => {
    expect(given([]).when(request())).toEqual({
      kind: 'accepted',
      events: [{ type: 'CommandRequested', data: { run_id: RUN, tool: 'run_command', command: 'npm test', timeout_ms: 60_000, decision: request().decision, caller, requested_at: T0 } }],
    });
  });

  it('given nothing, when a refused command is requested, then the refusal is recorded with the deciding rule', () => {
    const decision = { verdict: 'refuse' as const, rule: 'deny[0]: rm', reason: 'rm is denied', argv: null, shell: null };
    const d = given([]).when(request({ command: 'rm -rf x', decision }));
    expect(d.kind === 'accepted' && d.events.map((e) => e.type)).toEqual(['CommandRequested', 'CommandRefused']);
    expect(d.kind === 'accepted' && d.events[1].data).toEqual({ run_id: RUN, code: 'FORBIDDEN', rule: 'deny[0]: rm', reason: 'rm is denied', refused_at: T0 });
  });

  it('given a refused request, when a start is recorded, then it is refused: nothing ran', () => {
    const decision = { verdict: 'refuse' as const, rule: 'mode: read_only', reason: 'read only', argv: null, shell: null };
    const refusedRun = decide(request({ decision }), initialCommandRunState);
    const events = refusedRun.kind === 'accepted' ? refusedRun.events : [];
    expect(given(events).when({ type: 'RecordStart', run_id: RUN, now: T1, pid: 1, pgid: 1, leader: null })).toMatchObject({ kind: 'refused', refusal: { code: 'run_not_requested' } });
  });

  it('given a request, when the start is recorded, then CommandStarted carries the group to kill', () => {
    expect(given(requestedEvents).when({ type: 'RecordStart', run_id: RUN, now: T1, pid: 42, pgid: 42, leader: 'boot:1234' })).toEqual({ kind: 'accepted', events: [started] });
  });

  it('given a request, when no process slot is free, then CommandRefused says so', () => {
    const d = given(requestedEvents).when({ type: 'RefuseCommand', run_id: RUN, now: T1, code: 'too_many_processes', rule: null, reason: '8 processes are live' });
    expect(d).toMatchObject({ kind: 'accepted', events: [{ type: 'CommandRefused', data: { code: 'too_many_processes' } }] });
  });

  it('given a running command, when input is sent, then its digest and size are recorded, never the input', () => {
    const d = given([...requestedEvents, started]).when({ type: 'RecordInput', run_id: RUN, now: T1, sha256: EMPTY.sha256, bytes: 3, rule: null });
    expect(d).toEqual({ kind: 'accepted', events: [{ type: 'CommandInputSent', data: { run_id: RUN, sha256: EMPTY.sha256, bytes: 3, rule: null, sent_at: T1 } }] });
  });

  it('given a running command, when it is killed and then exits, then both are recorded and the run is over', () => {
    const g = given([...requestedEvents, started]);
    const kill = g.when({ type: 'RecordKill', run_id: RUN, now: T2, reason: 'timeout', outcome: 'terminated' });
    expect(kill).toMatchObject({ kind: 'accepted', events: [{ type: 'CommandKilled', data: { reason: 'timeout', outcome: 'terminated' } }] });
    const killedEvents = kill.kind === 'accepted' ? kill.events : [];
    const after = given([...requestedEvents, started, ...killedEvents]);
    expect(after.when({ type: 'RecordKill', run_id: RUN, now: T2, reason: 'kill_command', outcome: 'gone' })).toMatchObject({ kind: 'refused' });
    const { type: _t, ...exitData } = exited;
    expect(after.when({ type: 'RecordExit', ...exited.data, now: T2 })).toMatchObject({ kind: 'accepted', events: [exitData] });
  });

  it('given an exited command, when input or a second exit arrives, then it is refused', () => {
    const g = given([...requestedEvents, started, exited]);
    expect(g.state).toMatchObject({ exists: true, phase: 'exited', exit_code: 1 });
    expect(g.when({ type: 'RecordInput', run_id: RUN, now: T2, sha256: EMPTY.sha256, bytes: 0, rule: null })).toMatchObject({ kind: 'refused', refusal: { code: 'run_not_running' } });
    expect(g.when({ type: 'RecordExit', ...exited.data, now: T2 })).toMatchObject({ kind: 'refused' });
  });

  it("given a run the service crashed under, when the restart's cleanup kills its group, then the run is settled", () => {
    const d = given([...requestedEvents, started]).when({ type: 'RecordKill', run_id: RUN, now: T2, reason: 'crash_cleanup', outcome: 'killed' });
    const events = d.kind === 'accepted' ? d.events : [];
    expect(given([...requestedEvents, started, ...events]).state).toMatchObject({ phase: 'exited', killed: true });
  });

  it('given nothing, when anything but a request arrives, then it is refused; a request twice is refused', () => {
    expect(given([]).when({ type: 'RecordStart', run_id: RUN, now: T1, pid: 1, pgid: 1, leader: null })).toMatchObject({ kind: 'refused', refusal: { code: 'run_not_found' } });
    expect(given(requestedEvents).when(request())).toMatchObject({ kind: 'refused', refusal: { code: 'run_exists' } });
  });
});

describe('command-run replay', () => {
  it('verifies a stream the decider wrote', () => {
    expect(replayCommandRun(RUN, [...requestedEvents, started, exited])).toMatchObject({ ok: true, events: 3, state: { phase: 'exited' } });
  });

  it('finds an event out of order, a tampered payload and another run', () => {
    expect(replayCommandRun(RUN, [...requestedEvents, exited])).toMatchObject({ ok: false, at: 1 });
    const tampered = { ...requestedEvents[0], data: { ...requestedEvents[0].data, decision: { ...request().decision, verdict: 'refuse' } } } as CommandRunEvent;
    expect(replayCommandRun(RUN, [tampered, started])).toMatchObject({ ok: false, at: 0 });
    expect(replayCommandRun('another', requestedEvents)).toMatchObject({ ok: false, at: 0 });
  });
});
