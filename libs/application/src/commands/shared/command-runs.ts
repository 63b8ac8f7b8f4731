import type { CommandGate } from '@palimpsest/core/policy/command-decision';
import type { ManagedProcess } from '@palimpsest/workspace/process/managed-process';
import type { ProcessManager } from '@palimpsest/workspace/process/process-manager';
import type { RunRecord } from './run-record';

/** A run this process started: its record, its process, and the promise its exit is recorded by. */
export interface LiveRun {
  record: RunRecord;
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

  /** Service stop: every group is stopped and each run's kill and exit recorded. */
  async stop(): Promise<void> {
    await this.processes?.stop();
    await Promise.allSettled([...this.runs.values()].map((r) => r.settled));
  }
}
