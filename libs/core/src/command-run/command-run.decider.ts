import type { CommandRunCommand, DecideApproval } from './command-run.commands';
import type { CommandRunEvent } from './command-run.events';
import type { CommandRun, CommandRunState } from './command-run.state';

/**
 * The command run's decider. Its refusals are the caller's mistakes (a run recorded twice, input to a
 * run that is not running): the process manager owns the process, and the stream records what it did.
 */

export type CommandRunRefusalCode = 'run_exists' | 'run_not_found' | 'run_not_requested' | 'run_not_running' | 'approval_not_pending';

export type CommandRunDecision =
  | { kind: 'accepted'; events: CommandRunEvent[] }
  | { kind: 'refused'; refusal: { code: CommandRunRefusalCode; detail: string } };

const refused = (code: CommandRunRefusalCode, detail: string): CommandRunDecision => ({ kind: 'refused', refusal: { code, detail } });
const accepted = (...events: CommandRunEvent[]): CommandRunDecision => ({ kind: 'accepted', events });

export function decide(command: CommandRunCommand, state: CommandRunState): CommandRunDecision {
  const { run_id, now } = command;
  if (command.type === 'RequestCommand') {
    if (state.exists) return refused('run_exists', `run ${run_id} was already requested`);
    const { type: _type, now: _now, ...request } = command;
    const requestedEvent: CommandRunEvent = { type: 'CommandRequested', data: { ...request, requested_at: now } };
    const d = command.decision;
    if (d.verdict !== 'refuse') return accepted(requestedEvent);
    const refusal = { run_id, code: 'FORBIDDEN' as const, rule: d.rule, reason: d.reason ?? 'refused by the policy', refused_at: now };
    return accepted(requestedEvent, { type: 'CommandRefused', data: refusal });
  }
  if (!state.exists) return refused('run_not_found', `no run ${run_id}`);
  switch (command.type) {
    case 'RequestApproval':
      if (state.phase !== 'requested' || state.decision.verdict !== 'approve') return refused('run_not_requested', `run ${run_id} is ${state.phase}, its verdict ${state.decision.verdict}`);
      return accepted({ type: 'CommandApprovalRequested', data: { run_id, approval_id: command.approval_id, rule: state.decision.rule, prompt: command.prompt, requested_at: now } });
    case 'DecideApproval':
      return decideApproval(command, state);
    case 'RefuseCommand':
      if (state.phase !== 'requested' && state.phase !== 'awaiting_approval') return refused('run_not_requested', `run ${run_id} is ${state.phase}`);
      return accepted({ type: 'CommandRefused', data: { run_id, code: command.code, rule: command.rule, reason: command.reason, refused_at: now } });
    case 'RecordStart':
      if (!startable(state)) return refused('run_not_requested', `run ${run_id} is ${state.phase}`);
      return accepted({ type: 'CommandStarted', data: { run_id, pid: command.pid, pgid: command.pgid, leader: command.leader, started_at: now } });
    case 'RecordInput':
      if (state.phase !== 'running') return refused('run_not_running', `run ${run_id} is ${state.phase}`);
      return accepted({ type: 'CommandInputSent', data: { run_id, sha256: command.sha256, bytes: command.bytes, rule: command.rule, sent_at: now } });
    case 'RecordKill':
      if (!killable(state, command.reason === 'crash_cleanup')) return refused('run_not_running', `run ${run_id} is ${state.phase}`);
      return accepted({ type: 'CommandKilled', data: { run_id, reason: command.reason, outcome: command.outcome, killed_at: now } });
    case 'RecordExit':
      if (state.phase !== 'running') return refused('run_not_running', `run ${run_id} is ${state.phase}`);
      return accepted({
        type: 'CommandExited',
        data: { run_id, exit_code: command.exit_code, signal: command.signal, duration_ms: command.duration_ms, stdout: command.stdout, stderr: command.stderr, exited_at: now },
      });
  }
}

/** A run starts when the policy let it run, or once a person granted its approval: never before. */
const startable = (run: CommandRun): boolean =>
  (run.phase === 'requested' && run.decision.verdict === 'run') || (run.phase === 'approved' && run.decision.verdict === 'approve');

/** Only the pending approval is decided, once; a decline refuses the run in the same append. */
function decideApproval(command: DecideApproval, state: CommandRun): CommandRunDecision {
  const { run_id, now, approval_id } = command;
  if (state.phase !== 'awaiting_approval' || state.approval_id !== approval_id) return refused('approval_not_pending', `approval ${approval_id} of run ${run_id} is not pending (the run is ${state.phase})`);
  const data = { run_id, approval_id, decided_by: command.decided_by, note: command.note, decided_at: now };
  if (command.decision === 'grant') return accepted({ type: 'CommandApproved', data });
  const reason = `${command.decided_by} declined the run${command.note ? `: ${command.note}` : ''}`;
  return accepted({ type: 'CommandDeclined', data }, { type: 'CommandRefused', data: { run_id, code: 'APPROVAL_DECLINED', rule: state.decision.rule, reason, refused_at: now } });
}

/** A running group can be killed once; the restart's cleanup also settles a run that was requested but never recorded as started. */
const killable = (run: CommandRun, cleanup: boolean): boolean =>
  !run.killed && (run.phase === 'running' || (cleanup && run.phase === 'requested'));

export function evolve(state: CommandRunState, event: CommandRunEvent): CommandRunState {
  if (event.type === 'CommandRequested') {
    const d = event.data;
    return { exists: true, run_id: d.run_id, tool: d.tool, command: d.command, decision: d.decision, phase: 'requested', approval_id: null, pgid: null, killed: false, inputs: 0, exit_code: null, signal: null };
  }
  if (!state.exists) return state;
  switch (event.type) {
    case 'CommandRefused':
      return { ...state, phase: 'refused' };
    case 'CommandApprovalRequested':
      return { ...state, phase: 'awaiting_approval', approval_id: event.data.approval_id };
    case 'CommandApproved':
      return { ...state, phase: 'approved' };
    case 'CommandDeclined':
      return state; // the CommandRefused appended with it ends the run
    case 'CommandStarted':
      return { ...state, phase: 'running', pgid: event.data.pgid };
    case 'CommandInputSent':
      return { ...state, inputs: state.inputs + 1 };
    case 'CommandKilled':
      // After a crash nothing will record the exit: the cleanup's kill is the run's last word.
      return { ...state, killed: true, phase: event.data.reason === 'crash_cleanup' ? 'exited' : state.phase };
    case 'CommandExited':
      return { ...state, phase: 'exited', exit_code: event.data.exit_code, signal: event.data.signal };
  }
}
