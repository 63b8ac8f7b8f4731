import type { CommandTool, RecordedDecision } from './command-run.events';

/** A command run as its stream leaves it. */
/** awaiting_approval: a person was asked; approved: they granted it and the run may start. */
export type CommandRunPhase = 'requested' | 'awaiting_approval' | 'approved' | 'refused' | 'running' | 'exited';

export interface CommandRun {
  exists: true;
  run_id: string;
  tool: CommandTool;
  command: string;
  decision: RecordedDecision;
  phase: CommandRunPhase;
  approval_id: string | null;
  pgid: number | null;
  /** Set once a kill was recorded (by kill_command, a timeout, the service stopping or the restart's cleanup). */
  killed: boolean;
  inputs: number;
  exit_code: number | null;
  signal: string | null;
}

export type CommandRunState = CommandRun | { exists: false };

export const initialCommandRunState: CommandRunState = { exists: false };
