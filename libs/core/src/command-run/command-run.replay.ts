import type { CommandRunCommand } from './command-run.commands';
import { decide, evolve } from './command-run.decider';
import type { CommandRunEvent } from './command-run.events';
import { initialCommandRunState, type CommandRunState } from './command-run.state';

/**
 * Replay of a command-run stream: each recorded event is turned back into the command that produced it
 * and decided again from the state the events before it leave; the decider must produce exactly the
 * recorded events. A run cannot be re-executed, so this proves the stream is one the decider wrote.
 */
export type CommandRunReplay =
  | { ok: true; state: CommandRunState; events: number }
  | { ok: false; at: number; problem: string };

function commandOf(event: CommandRunEvent): CommandRunCommand {
  switch (event.type) {
    case 'CommandRequested': {
      const { requested_at, ...rest } = event.data;
      return { type: 'RequestCommand', ...rest, now: requested_at };
    }
    case 'CommandRefused': {
      const { refused_at, ...rest } = event.data;
      return { type: 'RefuseCommand', ...rest, now: refused_at };
    }
    case 'CommandApprovalRequested':
      return { type: 'RequestApproval', run_id: event.data.run_id, approval_id: event.data.approval_id, prompt: event.data.prompt, now: event.data.requested_at };
    case 'CommandApproved':
    case 'CommandDeclined': {
      const { decided_at, ...rest } = event.data;
      return { type: 'DecideApproval', ...rest, decision: event.type === 'CommandApproved' ? 'grant' : 'decline', now: decided_at };
    }
    case 'CommandStarted': {
      const { started_at, ...rest } = event.data;
      return { type: 'RecordStart', ...rest, now: started_at };
    }
    case 'CommandInputSent': {
      const { sent_at, ...rest } = event.data;
      return { type: 'RecordInput', ...rest, now: sent_at };
    }
    case 'CommandKilled': {
      const { killed_at, ...rest } = event.data;
      return { type: 'RecordKill', ...rest, now: killed_at };
    }
    case 'CommandExited': {
      const { exited_at, ...rest } = event.data;
      return { type: 'RecordExit', ...rest, now: exited_at };
    }
  }
}

/** JSON with keys sorted, so two payloads compare by content. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function replayCommandRun(runId: string, events: readonly CommandRunEvent[]): CommandRunReplay {
  let state = initialCommandRunState;
  let at = 0;
  while (at < events.length) {
    const event = events[at];
    if (event.data.run_id !== runId) return { ok: false, at, problem: `${event.type} names run ${event.data.run_id}` };
    const decision = decide(commandOf(event), state);
    if (decision.kind === 'refused') return { ok: false, at, problem: `${event.type}: ${decision.refusal.detail}` };
    const recorded = events.slice(at, at + decision.events.length);
    if (canonical(recorded) !== canonical(decision.events)) return { ok: false, at, problem: `${event.type} is not what the decider records for it` };
    for (const e of decision.events) state = evolve(state, e);
    at += decision.events.length;
  }
  return { ok: true, state, events: events.length };
}
