import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gatewayFilePath } from '@palimpsest/api/lifecycle/gateway-address';
import { isolatedStore, runCli } from '../../support/cli-process';
import { HttpClient } from '../../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../../support/http-server';

/**
 * On PostgreSQL nothing is held: the gateway publishes no address, and every command opens the
 * database itself while the gateway runs, side by side, as before.
 */
describe('CLI commands beside a running gateway on PostgreSQL', () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let env: NodeJS.ProcessEnv;
  let scratch: string;
  let api: ApiProcess;
  let http: HttpClient;

  beforeAll(async () => {
    store = await isolatedStore();
    scratch = mkdtempSync(join(tmpdir(), 'palimpsest-pg-cli-'));
    env = { ...store.env, PALIMPSEST_DATA_DIR: join(scratch, 'data') }; // set, and unused: DATABASE_URL wins
    const { token } = (await seedTokens(env, { all: 'read,write,operator,auditor' })).all!;
    api = await startApi(env);
    http = new HttpClient(api.url, token);
  });
  afterAll(async () => {
    expect((await api.stop()).code).toBe(0);
    rmSync(scratch, { recursive: true, force: true });
    await store.dispose();
  });

  it('publishes nothing, and each command works on the database directly while the gateway serves it', async () => {
    expect(api.localToken).toBeNull(); // no local token on PostgreSQL, and no published credential either
    expect(existsSync(gatewayFilePath(env.PALIMPSEST_DATA_DIR!))).toBe(false);
    expect(readdirSync(scratch)).toEqual([]);

    const created = await runCli(['call', 'palimpsest_initialize_target'], { env, input: JSON.stringify({ filename: 'pg.md', content: 'alpha beta alpha\n' }) });
    expect(created.code).toBe(0);
    const id = JSON.parse(created.stdout).target_file_id as string;
    expect((await http.get(`/v1/targets/${id}`)).body).toMatchObject({ status: 'ok', version: 0 }); // one store

    const edit = { target_file_id: id, intent: 'Rename', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'gamma', occurrence_index: 2 }] };
    expect((await http.post(`/v1/targets/${id}/edits`, edit)).body).toMatchObject({ status: 'accepted', version: 1 });
    const replay = await runCli(['replay', id], { env });
    expect({ code: replay.code, report: JSON.parse(replay.stdout) }).toMatchObject({ code: 0, report: { status: 'success', materialized_state_matches: true, current_version: 1 } });

    const rebuild = await runCli(['projections', 'rebuild', '--no-progress'], { env });
    expect({ code: rebuild.code, report: JSON.parse(rebuild.stdout) }).toMatchObject({ code: 0, report: { equal: true } });
    const migrate = await runCli(['migrate'], { env });
    expect(migrate).toMatchObject({ code: 0, stdout: expect.stringMatching(/^PostgreSQL \(.*\) is up to date\n$/) });
    expect(migrate.stderr).not.toContain('through the gateway');
    expect(await runCli(['approvals', 'list'], { env })).toMatchObject({ code: 0, stdout: 'no pending approvals\n' });
    const tour = await runCli(['tour'], { env });
    expect(tour.code).toBe(0);
    expect(tour.stdout).toContain('{"status":"success","materialized_state_matches":true}');
  }, 120_000);

  it('a token created by the CLI works on the running gateway at once, and stops working when the CLI revokes it', async () => {
    const created = await runCli(['tokens', 'create', '--scopes', 'read', '--name', 'side by side', '--json'], { env });
    expect(created.code).toBe(0);
    const { token, token_id } = JSON.parse(created.stdout) as { token: string; token_id: string };
    expect((await http.get('/v1/capabilities', undefined, { token })).status).toBe(200);
    const listed = await runCli(['tokens', 'list', '--json'], { env });
    expect((JSON.parse(listed.stdout) as { name: string }[]).map((t) => t.name).sort()).toEqual(['all', 'side by side']);
    expect((await runCli(['tokens', 'revoke', token_id], { env })).code).toBe(0);
    expect((await http.get('/v1/capabilities', undefined, { token })).status).toBe(401);
  }, 60_000);
});
