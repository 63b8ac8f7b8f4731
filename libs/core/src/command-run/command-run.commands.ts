import type {
  CommandCaller,
  CommandRefusalCode,
  CommandTool,
  KillReason,
  RecordedDecision,
  StreamDigest,
} from './command-run.events';

/** Command-run commands. Ids, time and what the process did come in with the command. */

interface CommandMeta {
  run_id: string;
  now: string;
}

/** Ask to run a command line; the policy has decided (a refusal is recorded with the request). */
export interface RequestCommand extends CommandMeta {
  type: 'RequestCommand';
  tool: CommandTool;
  command: string;
  timeout_ms: number | null;
  decision: RecordedDecision;
  caller: CommandCaller;
}

/** The run did not start: the policy refused it, an approval was declined, or no process slot was free. */
export interface RefuseCommand extends CommandMeta {
  type: 'RefuseCommand';
  code: CommandRefusalCode;
  rule: string | null;
  reason: string;
}

/** The policy's verdict was `approve`: ask a person, under a fresh approval id. */
export interface RequestApproval extends CommandMeta {
  type: 'RequestApproval';
  approval_id: string;
  prompt: string;
}

/** A person's decision on the pending approval; a decline is also the run's refusal (APPROVAL_DECLINED). */
export interface DecideApproval extends CommandMeta {
  type: 'DecideApproval';
  approval_id: string;
  decision: 'grant' | 'decline';
  decided_by: string;
  note: string | null;
}

export interface RecordStart extends CommandMeta {
  type: 'RecordStart';
  pid: number;
  pgid: number;
  leader: string | null;
}

export interface RecordInput extends CommandMeta {
  type: 'RecordInput';
  sha256: string;
  bytes: number;
  rule: string | null;
}

export interface RecordKill extends CommandMeta {
  type: 'RecordKill';
  reason: KillReason;
  outcome: 'gone' | 'terminated' | 'killed';
}

export interface RecordExit extends CommandMeta {
  type: 'RecordExit';
  exit_code: number | null;
  signal: string | null;
  duration_ms: number;
  stdout: StreamDigest;
  stderr: StreamDigest;
}

export type CommandRunCommand = RequestCommand | RefuseCommand | RequestApproval | DecideApproval | RecordStart | RecordInput | RecordKill | RecordExit;
