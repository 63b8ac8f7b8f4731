import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gatewayFilePath } from '@palimpsest/api/lifecycle/gateway-address';
import { lockPathFor } from '@palimpsest/store/pglite/data-dir-lock';
import { CLI_BIN, REPO_ROOT } from '../support/cli-process';
import { startApi } from '../support/http-server';

/**
 * Closing the terminal sends SIGHUP: the servers stop as on SIGINT, so the embedded store's lock and
 * the gateway's credential file are removed, and the next start finds nothing left behind.
 */
describe('SIGHUP stops the servers gracefully', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'palimpsest-hup-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('palimpsest api: drains, removes the lock and the gateway file, exits 0', async () => {
    const dataDir = join(tmp, 'api');
    const api = await startApi({ DATABASE_URL: '', PALIMPSEST_DATA_DIR: dataDir }, ['--no-local-token']);
    expect(existsSync(gatewayFilePath(dataDir))).toBe(true);
    expect(existsSync(lockPathFor(dataDir))).toBe(true);
    const { code, stderr } = await api.stop('SIGHUP');
    expect(code).toBe(0);
    expect(stderr).toContain('palimpsest api: SIGHUP: finishing in-flight requests');
    expect(stderr).toContain('palimpsest api: stopped');
    expect(existsSync(gatewayFilePath(dataDir))).toBe(false);
    expect(existsSync(lockPathFor(dataDir))).toBe(false);
  });

  it('palimpsest mcp: closes the store, removes the lock, exits 0', async () => {
    const dataDir = join(tmp, 'mcp');
    const child = spawn(process.execPath, [CLI_BIN, 'mcp'], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: '', PALIMPSEST_DATA_DIR: dataDir, PALIMPSEST_PROJECTOR: 'off' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
        if (stderr.includes('palimpsest mcp: ready')) resolve();
      });
      void exited.then((code) => reject(new Error(`palimpsest mcp exited with ${code} before it was ready:\n${stderr}`)));
    });
    expect(existsSync(lockPathFor(dataDir))).toBe(true);
    child.kill('SIGHUP'); // stdin stays open: the signal alone must stop it
    expect(await exited).toBe(0);
    expect(existsSync(lockPathFor(dataDir))).toBe(false);
  });
});
