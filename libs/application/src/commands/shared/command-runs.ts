import type { CommandGate } from '@palimpsest/core/policy/command-decision';
import type { ManagedProcess } from '@palimpsest/workspace/process/managed-process';
import type { ProcessManager } from '@palimpsest/workspace/process/process-manager';
import type { CommandRunCommand } from '@palimpsest/core/command-run/command-run.commands';

/** A command-run command without its run id and time, which the run's log fills in. */
export type RunStep = CommandRunCommand extends infer C ? (C extends CommandRunCommand ? Omit<C, 'run_id' | 'now'> : never) : never;

/** A run's stream as this process writes it (RunRecord). */
export interface RunLog {
  readonly runId: string;
  record(step: RunStep): Promise<void>;
  /** Records now what the run holds back. */
  recordHeld(): Promise<void>;
}

/** A run this process started: its record, its process, and the promise its exit is recorded by. */
export interface LiveRun {
  record: RunLog;
  process: ManagedProcess;
  /** Resolves once the exit (and a kill before it) is on the record. */
  settled: Promise<void>;
}

/**
 * The command tools' port: the workspace's process manager (null without a workspace root), the gate
 * that decides each line under the owner's policy, and the runs this process started.
 */
export class CommandRuns {
  readonly runs = new Map<string, LiveRun>();

  constructor(readonly processes: ProcessManager | null, readonly gate: CommandGate) {}

  /** Records now every step a run holds back (a start waiting a moment to go with its exit). */
  async recordHeld(): Promise<void> {
    await Promise.all([...this.runs.values()].map((r) => r.record.recordHeld()));
  }

  /** Service stop: every group is stopped and each run's kill and exit recorded. */
  async stop(): Promise<void> {
    await this.processes?.stop();
    await Promise.allSettled([...this.runs.values()].map((r) => r.settled));
  }
}
