import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { CLI_BIN, REPO_ROOT } from './cli-process';

/**
 * Drives `palimpsest serve` as a real process: raw bytes in on stdin, response lines out of stdout.
 * Lines are kept exactly as received (latin1, so any non-ASCII byte would show up as such).
 */
export class JsonLinesClient {
  readonly lines: string[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcessWithoutNullStreams;
  private rest = '';
  private waiters: Array<() => void> = [];
  private taken = 0;
  private nextId = 1;

  constructor(args: string[], env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [CLI_BIN, 'serve', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdin.on('error', () => undefined); // the server may stop reading first (oversized frame)
    this.child.stdout.on('data', (d: Buffer) => {
      const parts = (this.rest + d.toString('latin1')).split('\n');
      this.rest = parts.pop() ?? '';
      this.lines.push(...parts);
      this.wake();
    });
    this.child.stderr.on('data', (d: Buffer) => (this.stderr += d.toString('utf8')));
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        this.wake();
        resolve({ code, signal });
      });
    });
  }

  /** Writes raw bytes (a frame is whatever you pass; add the LF yourself). */
  send(data: string | Uint8Array): void {
    this.child.stdin.write(data);
  }

  /** Closes stdin: EOF for the server. */
  end(): void {
    this.child.stdin.end();
  }

  /** The next response line not yet taken, as received. */
  async nextLine(timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (this.taken >= this.lines.length) {
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(`server exited before answering; stderr: ${this.stderr}`);
      }
      if (Date.now() > deadline) throw new Error(`no response within ${timeoutMs} ms; stderr: ${this.stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.lines[this.taken++];
  }

  async next(): Promise<Record<string, any>> {
    return JSON.parse(await this.nextLine());
  }

  /** Sends one request with a fresh integer id and returns its parsed response. */
  async call(method: string, params?: unknown): Promise<Record<string, any>> {
    const id = this.nextId++;
    this.send(`${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) })}\n`);
    const response = await this.next();
    if (response.id !== id) throw new Error(`expected the response to id ${id}, got ${JSON.stringify(response)}`);
    return response;
  }

  /** Sends a notification (no id): nothing comes back. */
  notify(method: string, params?: unknown): void {
    this.send(`${JSON.stringify({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) })}\n`);
  }

  /** Lines received but not yet taken. */
  get pending(): number {
    return this.lines.length - this.taken;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
