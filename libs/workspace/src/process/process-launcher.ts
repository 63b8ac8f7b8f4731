import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { processIdentity } from './process-group';

/** Names the run in every process of its group (the environment is inherited): how a restart finds a run that crashed before its start was recorded. */
export const RUN_MARKER_VARIABLE = 'PALIMPSEST_COMMAND_RUN';

/** What to start: a program and its arguments, at `cwd`, leader of a new process group. */
export interface LaunchRequest {
  id: string;
  file: string;
  args: readonly string[];
  cwd: string;
  /** Keep a writable stdin (start_command); otherwise stdin reads /dev/null. */
  stdin: boolean;
}

/** How the leader ended; `lost` when nothing can say (the spawner that reaped it died first). */
export interface LeaderExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  lost: boolean;
}

/** A started (or failed) leader: its pid and identity, its three ends, and its end to come. */
export interface Launched {
  /** -1 when it could not start (`failure` says why). */
  pid: number;
  identity: string | null;
  failure: string | null;
  stdin: Writable | null;
  stdout: Readable | null;
  stderr: Readable | null;
  exited: Promise<LeaderExit>;
}

/** Starts command processes: in this process (DirectLauncher) or through a small spawner process (SpawnerLauncher). */
export interface ProcessLauncher {
  launch(request: LaunchRequest): Promise<Launched>;
  /** Stop whatever the launcher itself runs (the spawner); the command groups are stopped by their owner. */
  stop(): Promise<void>;
}

const launchFailure = (message: string): Launched => ({
  pid: -1,
  identity: null,
  failure: message,
  stdin: null,
  stdout: null,
  stderr: null,
  exited: Promise.resolve({ code: 127, signal: null, lost: false }),
});
export { launchFailure };

/** Forks this process for each command: simple, but a fork costs in proportion to this process's memory. */
export class DirectLauncher implements ProcessLauncher {
  /** `baseEnv`: the environment every command inherits (the service's, as its composition root read it). */
  constructor(private readonly baseEnv: Readonly<Record<string, string | undefined>>) {}

  async launch(r: LaunchRequest): Promise<Launched> {
    const env = { ...this.baseEnv, PWD: r.cwd, [RUN_MARKER_VARIABLE]: r.id }; // PWD names its directory, as a shell would set it
    const child = spawn(r.file, [...r.args], { cwd: r.cwd, env, detached: true, stdio: [r.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    const exited = new Promise<LeaderExit>((resolve) => {
      child.once('error', () => resolve({ code: 127, signal: null, lost: false }));
      child.once('exit', (code, signal) => resolve({ code, signal, lost: false }));
    });
    if (child.pid === undefined) {
      const message = await new Promise<string>((resolve) => child.once('error', (error) => resolve(error.message)));
      return launchFailure(message);
    }
    return { pid: child.pid, identity: processIdentity(child.pid), failure: null, stdin: child.stdin, stdout: child.stdout, stderr: child.stderr, exited };
  }

  async stop(): Promise<void> {}
}
