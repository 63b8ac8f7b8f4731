import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchFailure, RUN_MARKER_VARIABLE, type Launched, type LaunchRequest, type LeaderExit, type ProcessLauncher } from './process-launcher';
import { SPAWNER_SOURCE } from './spawner-source';

/** Connections kept open to the spawner ahead of need: up to three per command, so two commands start without waiting for one. */
const POOL = 6;

/** The ends a command takes from the pool, in connection order: stdin (start_command only), stdout, stderr. */
const endsFor = (stdin: boolean): number => (stdin ? 3 : 2);

type SpawnerMessage =
  | { t: 'ready' }
  | { t: 'spawned'; id: string; pid: number; identity: string | null }
  | { t: 'failed'; id: string; message: string }
  | { t: 'exit'; id: string; code: number | null; signal: NodeJS.Signals | null };

interface Pending {
  ends: Socket[];
  stdin: boolean;
  started: (launched: Omit<Launched, 'exited'>) => void;
  exit: (exit: LeaderExit) => void;
}

/** One spawner process and its connections; replaced whole when it dies. */
class Spawner {
  private readonly pool: Socket[] = [];
  private readonly pending = new Map<string, Pending>();
  readonly ready: Promise<void>;
  private dead = false;

  constructor(private readonly child: ChildProcess, private readonly dir: string, private readonly socketPath: string, private readonly onDeath: () => void) {
    let resolveReady: () => void = () => undefined;
    let rejectReady: (error: Error) => void = () => undefined;
    this.ready = new Promise((resolve, reject) => ([resolveReady, rejectReady] = [resolve, reject]));
    this.ready.catch(() => undefined);
    child.on('message', (m: SpawnerMessage) => {
      if (m.t === 'ready') {
        this.fill();
        resolveReady();
      } else this.receive(m);
    });
    child.once('exit', () => {
      this.die();
      rejectReady(new Error('the command spawner exited before it was ready'));
    });
    // A send on a closing channel, a failed start: the spawner is done for, and the service goes on.
    child.on('error', (error) => {
      this.die();
      rejectReady(error);
    });
  }

  get pid(): number | null {
    return this.child.pid ?? null;
  }

  get alive(): boolean {
    return !this.dead;
  }

  /** Connect `n` more ends; connect() is issued in call order, which is the order the spawner accepts them in. */
  private fill(n = POOL - this.pool.length): void {
    for (let i = 0; i < n; i++) {
      const end = connect(this.socketPath);
      end.on('error', () => undefined); // a command that closed its end early: the stream's close says enough
      this.pool.push(end);
    }
  }

  launch(r: LaunchRequest): Promise<Launched> {
    if (this.dead) return Promise.resolve(launchFailure('the command spawner is not running'));
    const n = endsFor(r.stdin);
    if (this.pool.length < n) this.fill(n - this.pool.length);
    const ends = this.pool.splice(0, n);
    return new Promise<Launched>((started) => {
      let exit: (e: LeaderExit) => void = () => undefined;
      const exited = new Promise<LeaderExit>((resolve) => (exit = resolve));
      this.pending.set(r.id, { ends, stdin: r.stdin, started: (l) => started({ ...l, exited }), exit });
      this.child.send({ t: 'spawn', id: r.id, file: r.file, args: r.args, cwd: r.cwd, stdin: r.stdin });
      if (!this.dead) this.fill(); // after the spawn is on its way: the pool's connects are not the command's wait
    });
  }

  private receive(m: Exclude<SpawnerMessage, { t: 'ready' }>): void {
    const p = this.pending.get(m.id);
    if (!p) return;
    const [stdin, stdout, stderr] = p.stdin ? p.ends : [null, ...p.ends];
    if (m.t === 'failed') {
      this.pending.delete(m.id);
      for (const end of p.ends) end.destroy();
      p.started(launchFailure(m.message));
      p.exit({ code: 127, signal: null, lost: false });
    } else if (m.t === 'spawned') {
      stdin?.resume(); // nothing is read back from a command's stdin; keep the end from buffering
      p.started({ pid: m.pid, identity: m.identity, failure: null, stdin: stdin ?? null, stdout: stdout ?? null, stderr: stderr ?? null });
    } else {
      this.pending.delete(m.id);
      p.exit({ code: m.code, signal: m.signal, lost: false });
    }
  }

  /** The spawner is gone: what it had started has no exit to report (its leaders are someone else's to reap now). */
  private die(): void {
    if (this.dead) return;
    this.dead = true;
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.started(launchFailure('the command spawner exited'));
      p.exit({ code: null, signal: null, lost: true });
    }
    for (const end of this.pool.splice(0)) end.destroy();
    rmSync(this.dir, { recursive: true, force: true });
    this.onDeath();
  }

  async stop(): Promise<void> {
    if (this.dead) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    if (this.child.connected) this.child.disconnect();
    else this.child.kill('SIGKILL');
    await gone;
  }
}

/**
 * Starts commands through a spawner process, started with the first command and stopped with the
 * service. Should it die, the commands it was running are reported as lost (exit unknown) and the next
 * command starts a new one.
 */
export class SpawnerLauncher implements ProcessLauncher {
  private spawner: Spawner | null = null;

  async launch(r: LaunchRequest): Promise<Launched> {
    const spawner = this.current();
    try {
      await spawner.ready;
    } catch (error) {
      return launchFailure(`the command spawner did not start: ${(error as Error).message}`);
    }
    return spawner.launch(r);
  }

  private current(): Spawner {
    if (this.spawner?.alive) return this.spawner;
    const dir = mkdtempSync(join(tmpdir(), 'palimpsest-spawner-'));
    const socketPath = join(dir, 's');
    const child = spawn(process.execPath, ['-e', SPAWNER_SOURCE, socketPath, RUN_MARKER_VARIABLE], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const spawner = new Spawner(child, dir, socketPath, () => {
      if (this.spawner === spawner) this.spawner = null;
    });
    this.spawner = spawner;
    return spawner;
  }

  /** The spawner's pid while it runs (for tests and diagnostics). */
  get spawnerPid(): number | null {
    return this.spawner?.alive ? this.spawner.pid : null;
  }

  async stop(): Promise<void> {
    await this.spawner?.stop();
    this.spawner = null;
  }
}
