import { createHash, type Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { killGroup, processIdentity, type GroupKill } from './process-group';
import { OutputRing } from './output-ring';
import type { Launched } from './process-launcher';

/** What to run: an argv run without a shell, or a line handed to /bin/sh -c. */
export type ProcessExec = { argv: readonly string[] } | { shell: string };

export interface ProcessExit {
  /** The exit code, or null when a signal ended it (or nothing could say: `lost`). */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The spawner that reaped the leader died first: how it ended is unknown (its group was stopped). */
  lost?: boolean;
  /** Milliseconds from spawn to exit. */
  durationMs: number;
}

export interface SpawnOptions {
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
  /** How the group went once the leader had ended (whatever the leader left running is stopped then). */
  groupStop: GroupKill | null = null;
  /** SHA-256 of everything each stream wrote (the rings keep only the end). */
  readonly digests = { stdout: createHash('sha256'), stderr: createHash('sha256') };
  private readonly launched: Launched;
  private waiters = new Set<() => void>();

  constructor(readonly id: string, readonly exec: ProcessExec, options: SpawnOptions, launched: Launched) {
    this.combined = new OutputRing(options.ringBytes);
    this.stdout = new OutputRing(options.tailBytes);
    this.stderr = new OutputRing(options.tailBytes);
    this.launched = launched;
    this.launched.stdin?.on('error', () => undefined); // a process that closed its stdin: the write answers, not the service
    this.launched.stdout?.on('data', (chunk: Buffer) => this.record(chunk, this.stdout, this.digests.stdout));
    this.launched.stderr?.on('data', (chunk: Buffer) => this.record(chunk, this.stderr, this.digests.stderr));
    if (launched.failure !== null) this.record(Buffer.from(`${launched.failure}\n`), this.stderr, this.digests.stderr);
    this.pid = launched.pid;
    this.identity = launched.identity;
    this.finished = this.track();
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
    const ended = await this.launched.exited;
    if (this.pid > 0) this.groupStop = await killGroup(this.pid);
    await this.drained();
    this.exit = { code: ended.code, signal: ended.signal, durationMs: Date.now() - this.startedAt, ...(ended.lost ? { lost: true } : {}) };
    this.wake();
    return this.exit;
  }

  /** The ends close once every writer is gone; the group is stopped, so that is soon. */
  private drained(): Promise<void> {
    const open = (s: Readable | null): s is Readable => s !== null && !s.closed && !s.destroyed;
    const streams = [this.launched.stdout, this.launched.stderr].filter(open);
    return Promise.all(streams.map((s) => new Promise<void>((resolve) => s.once('close', () => resolve())))).then(() => undefined);
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
    const stdin = this.launched.stdin;
    if (!this.running || !stdin || stdin.destroyed || !stdin.writable) return null;
    return new Promise((resolve) => stdin.write(data, (error) => resolve(error ? null : data.length)));
  }

  /**
   * Stop the whole group (SIGTERM, then SIGKILL within the grace) and wait for the exit. The first
   * request is the one recorded (`killRequest`); later ones wait for it.
   */
  async kill(reason = 'kill'): Promise<ProcessExit> {
    if (this.running && this.pid > 0 && !this.killRequest) {
      const outcome = killGroup(this.pid);
      this.killRequest = { reason, outcome };
      this.killedBy = await outcome;
    }
    return this.finished;
  }
}
