import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli-process';

/**
 * The CLI's own surface, which answers before any store is opened: its version, usage errors, --help,
 * the catalog and a port already in use. The processes are pinned to an embedded data directory
 * (DATABASE_URL='') that each test checks was never created, so CI runs this suite on the embedded run
 * only (jest.config.js, EMBEDDED_ONLY): on the PostgreSQL run it could only repeat it.
 */
describe('palimpsest CLI as a real process, before it opens a store', () => {
  let root: string;
  let env: NodeJS.ProcessEnv;
  const dataDir = () => env.PALIMPSEST_DATA_DIR!;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-cli-no-store-'));
    env = { DATABASE_URL: '', PALIMPSEST_DATA_DIR: join(root, 'data') };
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('prints its version, suggests a command it knows, and lists the environment in --help', async () => {
    const version = await runCli(['--version'], { env });
    expect({ code: version.code, out: version.stdout.trim() }).toEqual({ code: 0, out: '0.1.0' });
    const typo = await runCli(['repaly'], { env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Did you mean replay?');
    expect(typo.stderr.trim().split('\n')).toHaveLength(3); // the error, the suggestion, where help is
    expect((await runCli(['replay', '--bogus'], { env })).code).toBe(2);
    const help = await runCli(['--help'], { env });
    for (const name of ['DATABASE_URL', 'PALIMPSEST_DATA_DIR', 'PORT', 'Examples:']) expect(help.stdout).toContain(name);
    expect(existsSync(dataDir())).toBe(false);
  });

  it('a port already in use is one clear error (exit 2), before anything starts', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen({ host: '127.0.0.1', port: 0 }, resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const r = await runCli(['api', '--port', String(port), '--no-local-token'], { env: { ...env, LOG_LEVEL: 'info' } });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`127.0.0.1:${port} is already in use`);
      expect(r.stdout).not.toContain('successfully started');
      expect(existsSync(dataDir())).toBe(false); // the store was not opened either
    } finally {
      taken.close();
    }
  });

  it('lists the catalog', async () => {
    const r = await runCli(['operations'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('palimpsest_submit_edits');
    expect(existsSync(dataDir())).toBe(false);
  });
});
