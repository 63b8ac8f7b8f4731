import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import WebSocket from 'ws';
import { CLI_BIN, REPO_ROOT } from './cli-process';

/** A `palimpsest connect` process. */
export interface ConnectProcess {
  pid: number;
  stderr(): string;
  /** Sends `signal` (SIGTERM by default) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `extra`: more arguments (`--policy name=file`). */
export function startConnect(gateway: string, token: string, projects: Record<string, string>, env: NodeJS.ProcessEnv = {}, extra: string[] = []): ConnectProcess {
  const args = ['connect', '--gateway', gateway, '--token', token, ...Object.entries(projects).flatMap(([name, dir]) => ['--project', `${name}=${dir}`]), ...extra];
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [CLI_BIN, ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdout.on('data', () => undefined);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return {
    pid: child.pid!,
    stderr: () => stderr,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export interface RawLink {
  ws: WebSocket;
  /** Every message the gateway sent, parsed. */
  received: Record<string, unknown>[];
  closed: Promise<{ code: number; reason: string }>;
  send(message: unknown): void;
  /** The next message of this type (one already received counts). */
  next(type: string, boundMs?: number): Promise<Record<string, unknown>>;
}

/** A raw WebSocket to the executor endpoint: the open link, or the HTTP answer that refused the upgrade. */
export function rawLink(url: string, token: string | null): Promise<RawLink | { status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: token ? { Authorization: `Bearer ${token}` } : {}, maxPayload: 4 * 1024 * 1024 });
    const received: Record<string, unknown>[] = [];
    const waiters: (() => void)[] = [];
    const closed = new Promise<{ code: number; reason: string }>((done) => ws.on('close', (code, reason) => done({ code, reason: reason.toString() })));
    ws.on('message', (data) => {
      received.push(JSON.parse(data.toString()));
      for (const wake of waiters.splice(0)) wake();
    });
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
    });
    ws.on('error', (error) => (ws.readyState === WebSocket.CONNECTING ? undefined : reject(error)));
    ws.on('open', () =>
      resolve({
        ws,
        received,
        closed,
        send: (message) => ws.send(typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message)),
        next: (type, boundMs = 5_000) =>
          new Promise((found, fail) => {
            const timer = setTimeout(() => fail(new Error(`no ${type} within ${boundMs} ms`)), boundMs);
            const look = () => {
              const hit = received.find((m) => m.type === type);
              if (hit) {
                clearTimeout(timer);
                return found(hit);
              }
              waiters.push(look);
            };
            look();
          }),
      }),
    );
  });
}

/** Polls `read` every 50 ms until `done` holds of its value; fails past `boundMs`. */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, boundMs: number, what: string): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > boundMs) throw new Error(`${what}: not within ${boundMs} ms; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
