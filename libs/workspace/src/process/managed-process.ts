import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, type Hash } from 'node:crypto';
import { killGroup, processIdentity, type GroupKill } from './process-group';
import { OutputRing } from './output-ring';

/** What to run: an argv run without a shell, or a line handed to /bin/sh -c. */
export type ProcessExec = { argv: readonly string[] } | { shell: string };

export interface ProcessExit {
  /** The exit code, or null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Milliseconds from spawn to exit. */
  durationMs: number;
}

export interface SpawnOptions {
  cwd: string;
  /** Keep stdin open for send_command_input (start_command); closed otherwise (run_command). */
  stdin: boolean;
  /** Ring size of the combined output, and of each stream's tail. */
  ringBytes: number;
  tailBytes: number;
}

/**
 * One spawned command, leader of its own process group. It records the combined output in a ring read
 * by byte cursor (start_command) and each stream's last bytes apart (run_command). When the leader
 * exits, whatever it left running in its group is stopped: nothing it started outlives it.
 */
export class ManagedProcess {
  readonly combined: OutputRing;
  readonly stdout: OutputRing;
  readonly stderr: OutputRing;
  readonly pid: number;
  /** The leader's identity beyond its pid (processIdentity), taken at spawn: what a restart checks before it kills. */
  readonly identity: string | null;
  readonly startedAt = Date.now();
  /** Resolves once the leader has exited, its group is stopped and its output is drained. */
  readonly finished: Promise<ProcessExit>;
  exit: ProcessExit | null = null;
  /** Set when kill() (or a timeout) stopped it: why, and how the group went. */
  killRequest: { reason: string; outcome: Promise<GroupKill> } | null = null;
  killedBy: GroupKill | null = null;
  /** SHA-256 of everything each stream wrote (the rings keep only the end). */
  readonly digests = { stdout: createHash('sha256'), stderr: createHash('sha256') };
  private readonly child: ChildProcess;
  private waiters = new Set<() => void>();

  constructor(readonly id: string, readonly exec: ProcessExec, options: SpawnOptions) {
    this.combined = new OutputRing(options.ringBytes);
    this.stdout = new OutputRing(options.tailBytes);
    this.stderr = new OutputRing(options.tailBytes);
    const [file, args] = 'argv' in exec ? [exec.argv[0], exec.argv.slice(1)] : ['/bin/sh', ['-c', exec.shell]];
    this.child = spawn(file, args, { cwd: options.cwd, detached: true, stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    this.child.stdin?.on('error', () => undefined); // a process that closed its stdin: the write answers, not the service
    this.child.stdout?.on('data', (chunk: Buffer) => this.record(chunk, this.stdout, this.digests.stdout));
    this.child.stderr?.on('data', (chunk: Buffer) => this.record(chunk, this.stderr, this.digests.stderr));
    this.finished = this.track();
    this.pid = this.child.pid ?? -1;
    this.identity = this.pid > 0 ? processIdentity(this.pid) : null;
  }

  get running(): boolean {
    return this.exit === null;
  }

  get command(): string {
    return 'argv' in this.exec ? this.exec.argv.join(' ') : this.exec.shell;
  }

  private record(chunk: Buffer, stream: OutputRing, digest: Hash): void {
    stream.append(chunk);
    digest.update(chunk);
    this.combined.append(chunk);
    this.wake();
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = new Set();
    for (const resolve of waiting) resolve();
  }

  private async track(): Promise<ProcessExit> {
    const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      this.child.once('error', (error) => {
        const message = Buffer.from(`${error.message}\n`);
        this.record(message, this.stderr, this.digests.stderr);
        resolve({ code: 127, signal: null });
      });
      this.child.once('exit', (code, signal) => resolve({ code, signal }));
    });
    if (this.child.pid !== undefined) await killGroup(this.child.pid);
    await this.drained();
    this.exit = { ...ended, durationMs: Date.now() - this.startedAt };
    this.wake();
    return this.exit;
  }

  /** The pipes close once every writer is gone; the group is stopped, so that is soon. */
  private drained(): Promise<void> {
    const streams = [this.child.stdout, this.child.stderr].filter((s) => s !== null && !s.closed);
    return Promise.all(streams.map((s) => new Promise<void>((resolve) => s!.once('close', () => resolve())))).then(() => undefined);
  }

  /** Resolves when output past `cursor` exists, the process has exited, or `ms` have passed. */
  waitForOutput(cursor: number, ms: number): Promise<void> {
    if (this.combined.written > cursor || !this.running || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  /** Write to stdin; null when stdin is closed (run_command) or the process has ended. */
  async write(data: Buffer): Promise<number | null> {
    const stdin = this.child.stdin;
    if (!this.running || !stdin || stdin.destroyed || !stdin.writable) return null;
    return new Promise((resolve) => stdin.write(data, (error) => resolve(error ? null : data.length)));
  }

  /**
   * Stop the whole group (SIGTERM, then SIGKILL within the grace) and wait for the exit. The first
   * request is the one recorded (`killRequest`); later ones wait for it.
   */
  async kill(reason = 'kill'): Promise<ProcessExit> {
    if (this.running && this.child.pid !== undefined && !this.killRequest) {
      const outcome = killGroup(this.child.pid);
      this.killRequest = { reason, outcome };
      this.killedBy = await outcome;
    }
    return this.finished;
  }
}
