import { killGroupNow } from './process-group';
import { PROCESS_LIMITS } from './process-limits';
import { ManagedProcess, type ProcessExec, type ProcessExit } from './managed-process';
import { utf8Text, utf8Window } from './utf8-window';
import type { ProcessLauncher } from './process-launcher';
import { SpawnerLauncher } from './spawner-launcher';

export type { ProcessExec, ProcessExit } from './managed-process';

export interface ProcessLimits {
  maxProcesses: number;
  ringBytes: number;
  chunkBytes: number;
  outputBytes: number;
  maxWaitMs: number;
}

export const DEFAULT_PROCESS_LIMITS: ProcessLimits = {
  maxProcesses: PROCESS_LIMITS.MAX_PROCESSES_PER_PROJECT,
  ringBytes: PROCESS_LIMITS.MAX_PROCESS_BUFFER_BYTES,
  chunkBytes: PROCESS_LIMITS.MAX_PROCESS_CHUNK_BYTES,
  outputBytes: PROCESS_LIMITS.MAX_COMMAND_OUTPUT_BYTES,
  maxWaitMs: PROCESS_LIMITS.MAX_OUTPUT_WAIT_MS,
};

export interface RunOutcome {
  exit: ProcessExit;
  stdout: string;
  stderr: string;
  /** Either stream wrote more than the tail kept (its front was cut). */
  truncated: boolean;
  timedOut: boolean;
}

export interface OutputRead {
  chunk: string;
  nextCursor: number;
  /** Bytes the ring had overtaken past the cursor asked for (0: nothing lost). */
  skippedBytes: number;
  running: boolean;
  exit: ProcessExit | null;
}

export type Started = { ok: true; process: ManagedProcess } | { ok: false; reason: 'too_many_processes'; live: number };

/** Finished processes kept for a last read, oldest dropped first. */
const FINISHED_KEPT = 32;

/**
 * The processes of one workspace: spawned at its root only, each the leader of its own group, at most
 * `maxProcesses` running at once. stop() (service shutdown) stops every group; and should the service
 * exit without it, the exit hook SIGKILLs every group still running.
 */
export class ProcessManager {
  private readonly processes = new Map<string, ManagedProcess>();
  private readonly onExit = () => this.killAllNow();
  private hooked = false;

  /** Starts asked for and not yet answered: they hold a slot. */
  private starting = 0;
  constructor(readonly root: string, readonly limits: ProcessLimits = DEFAULT_PROCESS_LIMITS, readonly launcher: ProcessLauncher = new SpawnerLauncher()) {}

  live(): ManagedProcess[] {
    return [...this.processes.values()].filter((p) => p.running);
  }

  get(id: string): ManagedProcess | undefined {
    return this.processes.get(id);
  }

  async start(id: string, exec: ProcessExec, stdin: boolean): Promise<Started> {
    const live = this.live().length + this.starting;
    if (live >= this.limits.maxProcesses) return { ok: false, reason: 'too_many_processes', live };
    if (!this.hooked) process.on('exit', this.onExit);
    this.hooked = true;
    const [file, args] = 'argv' in exec ? [exec.argv[0], exec.argv.slice(1)] : ['/bin/sh', ['-c', exec.shell]];
    this.starting++;
    let launched;
    try {
      launched = await this.launcher.launch({ id, file, args, cwd: this.root, stdin });
    } finally {
      this.starting--;
    }
    const spawned = new ManagedProcess(id, exec, { ringBytes: this.limits.ringBytes, tailBytes: this.limits.outputBytes }, launched);
    this.processes.set(id, spawned);
    void spawned.finished.then(() => this.forgetOldFinished());
    return { ok: true, process: spawned };
  }

  /** Run to the end with stdin closed; at `timeoutMs` the whole group is stopped. */
  async run(id: string, exec: ProcessExec, timeoutMs: number): Promise<RunOutcome | Extract<Started, { ok: false }>> {
    const started = await this.start(id, exec, false);
    return started.ok ? runToEnd(started.process, timeoutMs) : started;
  }

  /** Read from `cursor`, first waiting up to `waitMs` (bounded) for output past it or the exit. */
  async read(p: ManagedProcess, cursor: number, waitMs: number): Promise<OutputRead> {
    await p.waitForOutput(cursor, Math.min(waitMs, this.limits.maxWaitMs));
    const read = p.combined.read(cursor, this.limits.chunkBytes);
    const whole = !p.running && read.nextCursor === p.combined.written;
    const window = utf8Window(read.bytes, read.skipped > 0, whole);
    return {
      chunk: window.text,
      nextCursor: read.nextCursor - window.heldBack,
      skippedBytes: read.skipped + window.dropped,
      running: p.running,
      exit: p.exit,
    };
  }

  /** Stop every group and wait for each (service shutdown). */
  async stop(): Promise<void> {
    process.off('exit', this.onExit);
    this.hooked = false;
    await Promise.all(this.live().map((p) => p.kill('service_stop')));
    await this.launcher.stop();
  }

  private killAllNow(): void {
    for (const p of this.live()) if (p.pid > 0) killGroupNow(p.pid);
  }

  private forgetOldFinished(): void {
    const finished = [...this.processes.values()].filter((p) => !p.running);
    for (const p of finished.slice(0, Math.max(0, finished.length - FINISHED_KEPT))) this.processes.delete(p.id);
  }
}

/** Wait for a started process to end, stopping its group at `timeoutMs`; its output's tails. */
export async function runToEnd(p: ManagedProcess, timeoutMs: number): Promise<RunOutcome> {
  const timer = setTimeout(() => void p.kill('timeout'), timeoutMs);
  const exit = await p.finished;
  clearTimeout(timer);
  const truncated = p.stdout.written > p.stdout.capacity || p.stderr.written > p.stderr.capacity;
  const text = (ring: typeof p.stdout) => utf8Text(ring.held(), ring.written > ring.capacity);
  return { exit, stdout: text(p.stdout), stderr: text(p.stderr), truncated, timedOut: p.killRequest?.reason === 'timeout' };
}
