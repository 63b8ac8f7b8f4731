import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli-process';
import { startApi, type ApiProcess } from '../support/http-server';
import { callCli, sha256 } from '../support/workspace-process';

/**
 * The gateway half of workspace-status.e2e.spec.ts: the CLI's workspace commands answered by a gateway
 * that holds an embedded data directory. Every process here is pinned to it (DATABASE_URL=''), so CI
 * runs this suite on the embedded run only (jest.config.js, EMBEDDED_ONLY): on the PostgreSQL run it
 * would only repeat it on PGlite.
 */
describe('palimpsest workspace status and refresh while a gateway holds the embedded store', () => {
  let dataRoot: string;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let api: ApiProcess | undefined;

  beforeAll(() => {
    dataRoot = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-status-gw-'));
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-status-gw-ws-'));
    env = { DATABASE_URL: '', PALIMPSEST_DATA_DIR: join(dataRoot, 'held'), PALIMPSEST_WORKSPACE_ROOT: dir };
  });
  afterAll(async () => {
    await api?.stop('SIGKILL');
    rmSync(dataRoot, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers through the gateway, which reads the files under its own workspace root', async () => {
    writeFileSync(join(dir, 'a.md'), 'a\n');
    api = await startApi(env, ['--no-local-token']);
    const created = (await callCli(env, 'palimpsest_initialize_target', { filename: 'a.md', from_workspace: true })).json;
    writeFileSync(join(dir, 'a.md'), 'b\n');
    const table = await runCli(['workspace', 'status'], { env });
    expect(table.code).toBe(0);
    expect(table.stdout.trimEnd().split('\n')[1]!.split(/\s+/)).toEqual(['a.md', 'drifted', '0', created.target_file_id, '-']);
    const refreshed = await runCli(['workspace', 'refresh', created.target_file_id], { env });
    expect(JSON.parse(refreshed.stdout)).toMatchObject({ status: 'refreshed', version: 1, disk_sha256: sha256('b\n') });
    expect(JSON.parse((await runCli(['workspace', 'status', '--json'], { env })).stdout)).toMatchObject({ files: [{ path: 'a.md', state: 'in_sync', version: 1 }] });
  }, 120_000);
});
