import type { OP } from '../errors/operation-names.generated';
/**
 * The command-run stream's events (`command-run-<uuid>`): one stream per command a caller asked to run
 * (run_command or start_command), from the request and the owner policy's decision to the exit. Output
 * itself is not recorded: its digests, sizes and a bounded tail are.
 */

export const COMMAND_RUN_EVENT_SCHEMA_VERSION = 1;

/** How much of the output's end an exit records, per stream. */
export const COMMAND_TAIL_BYTES = 2_048;

export const commandRunStreamId = (runId: string): string => `command-run-${runId}`;

export type CommandTool = OP.run_command | OP.start_command;

/** The policy's decision as recorded: what would run (argv, or a line for a shell), and the rule that decided. */
export interface RecordedDecision {
  verdict: 'run' | 'approve' | 'refuse';
  rule: string | null;
  reason: string | null;
  argv: string[] | null;
  shell: string | null;
}

/** Who asked: the policy (profile or token) in force and the transport's session, when known. */
export interface CommandCaller {
  policy: string | null;
  profile: 'full' | 'read-only';
  correlation_id: string | null;
}

export interface CommandRequestedData {
  run_id: string;
  tool: CommandTool;
  command: string;
  timeout_ms: number | null;
  decision: RecordedDecision;
  caller: CommandCaller;
  requested_at: string;
}

export type CommandRefusalCode = 'FORBIDDEN' | 'APPROVAL_DECLINED' | 'APPROVAL_TIMEOUT' | 'too_many_processes' | 'spawn_failed';

export interface CommandRefusedData {
  run_id: string;
  code: CommandRefusalCode;
  rule: string | null;
  reason: string;
  refused_at: string;
}

export interface CommandStartedData {
  run_id: string;
  pid: number;
  /** The process group every process the command starts belongs to: what a restart kills. */
  pgid: number;
  /** The leader's boot and start time (`<boot id>:<ticks>`): a restart kills the group only while it is still this one. */
  leader: string | null;
  started_at: string;
}

export interface CommandInputSentData {
  run_id: string;
  sha256: string;
  bytes: number;
  rule: string | null;
  sent_at: string;
}

/** The policy asked a person to confirm the run: nothing runs before a decision. */
export interface CommandApprovalRequestedData {
  run_id: string;
  approval_id: string;
  rule: string | null;
  /** What the person is asked: the line and why the policy asks. */
  prompt: string;
  requested_at: string;
}

/** A person's decision on a run's approval (CommandApproved or CommandDeclined). */
export interface CommandApprovalDecidedData {
  run_id: string;
  approval_id: string;
  decided_by: string;
  note: string | null;
  decided_at: string;
}

export type KillReason = OP.kill_command | 'timeout' | 'service_stop' | 'crash_cleanup';

export interface CommandKilledData {
  run_id: string;
  reason: KillReason;
  /** gone: nothing was left to signal; terminated: SIGTERM sufficed; killed: SIGKILL after the grace. */
  outcome: 'gone' | 'terminated' | 'killed';
  killed_at: string;
}

export interface StreamDigest {
  sha256: string;
  bytes: number;
  /** The stream's last bytes (at most COMMAND_TAIL_BYTES), as text. */
  tail: string;
}

export interface CommandExitedData {
  run_id: string;
  exit_code: number | null;
  signal: string | null;
  duration_ms: number;
  stdout: StreamDigest;
  stderr: StreamDigest;
  exited_at: string;
}

export type CommandRunEvent =
  | { type: 'CommandRequested'; data: CommandRequestedData }
  | { type: 'CommandRefused'; data: CommandRefusedData }
  | { type: 'CommandApprovalRequested'; data: CommandApprovalRequestedData }
  | { type: 'CommandApproved'; data: CommandApprovalDecidedData }
  | { type: 'CommandDeclined'; data: CommandApprovalDecidedData }
  | { type: 'CommandStarted'; data: CommandStartedData }
  | { type: 'CommandInputSent'; data: CommandInputSentData }
  | { type: 'CommandKilled'; data: CommandKilledData }
  | { type: 'CommandExited'; data: CommandExitedData };

export type CommandRunEventType = CommandRunEvent['type'];

export const COMMAND_RUN_EVENT_TYPES: readonly CommandRunEventType[] = [
  'CommandRequested',
  'CommandRefused',
  'CommandApprovalRequested',
  'CommandApproved',
  'CommandDeclined',
  'CommandStarted',
  'CommandInputSent',
  'CommandKilled',
  'CommandExited',
];
