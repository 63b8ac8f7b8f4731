import { spawn } from 'node:child_process';
import { CLI_BIN, isolatedStore } from '../support/cli-process';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

/**
 * `palimpsest api` started from a person's terminal (a pseudo-terminal from `script`): short readable
 * log lines instead of JSON, no start-up chatter, and the banner (with the local token on the embedded
 * store) last, where it is seen.
 */
describe(`palimpsest api on a terminal (${backend})`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  beforeAll(async () => {
    store = await isolatedStore();
  });
  afterAll(() => store.dispose());

  it('prints readable lines and ends its start-up with the banner', async () => {
    const child = spawn('script', ['-qefc', `${process.execPath} ${CLI_BIN} api --port 0`, '/dev/null'], {
      env: { ...process.env, ...store.env, LOG_LEVEL: 'info', LOG_FORMAT: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    const exited = new Promise((resolve) => child.on('close', resolve));
    try {
      const deadline = Date.now() + 45_000;
      while (!/listening on/.test(out)) {
        if (Date.now() > deadline) throw new Error(`no banner:\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 300)); // the rest of the banner (one write, maybe several pty reads)
      const url = /listening on (http:\/\/\S+)/.exec(out)![1]!;
      const startup = out;
      expect(startup).not.toMatch(/\{"level"/); // no JSON lines on a terminal
      expect(startup).not.toContain('Mapped {'); // no route-by-route chatter
      const banner = startup.slice(startup.indexOf('palimpsest api '));
      if (backend === 'pglite') expect(banner).toContain('local token');
      await fetch(`${url}/health`);
      const logged = Date.now() + 5_000;
      while (!/\/health/.test(out.slice(startup.length)) && Date.now() < logged) await new Promise((r) => setTimeout(r, 100));
      const after = out.slice(startup.length);
      expect(after).toMatch(/INFO.*\/health/);
      expect(after).not.toMatch(/\{"level"/);
    } finally {
      child.stdin.end('\u0003'); // ^C on the terminal: the gateway drains and stops
      child.kill('SIGTERM');
      await exited;
    }
  }, 60_000);
});
