import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GATEWAY_CREDENTIAL_NAME, gatewayFilePath, readGatewayAddress } from '@palimpsest/api/lifecycle/gateway-address';
import { CLI_BIN, REPO_ROOT, runCli, type CliResult } from '../support/cli-process';
import { HttpClient } from '../support/http-client';
import { startApi, type ApiProcess } from '../support/http-server';

/**
 * The embedded store belongs to one process. While `palimpsest api` holds it, every store-using command
 * goes through that gateway and prints what it prints locally: the same command sequence runs on one
 * data directory with no gateway and on another held by a gateway, and the answers compare equal up to
 * the ids, secrets and clocks that differ between any two stores.
 */
const MISSING = '00000000-0000-4000-8000-000000000000';

type Env = NodeJS.ProcessEnv;
type Results = Record<string, CliResult>;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
function normalized(text: string, dataDir: string): string {
  return text
    .split(dataDir)
    .join('<data>')
    .replace(UUID, (m) => (m === MISSING ? m : '<uuid>'))
    .replace(/pal_[A-Za-z0-9_-]{43}/g, '<token>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
    .replace(/"duration_ms": \d+/g, '"duration_ms": <ms>');
}

/** The gateway's own credential is not the sequence's. */
function withoutGatewayTokens(stdout: string): string {
  const list = JSON.parse(stdout) as { name: string }[];
  return `${JSON.stringify(list.filter((t) => t.name !== GATEWAY_CREDENTIAL_NAME), null, 2)}\n`;
}

async function commandSequence(env: Env): Promise<Results> {
  const out: Results = {};
  const run = async (key: string, args: string[], input?: string) => (out[key] = await runCli(args, { env, input }));
  const created = await run('call initialize', ['call', 'palimpsest_initialize_target'], JSON.stringify({ filename: 'a.md', content: 'alpha beta alpha\r\n' }));
  const id = JSON.parse(created.stdout).target_file_id as string;
  const edit = (occurrence: number | null) => ({ target_file_id: id, intent: 'Rename', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'gamma', occurrence_index: occurrence }] });
  await run('call rejected', ['call', 'palimpsest_submit_edits', '--args', JSON.stringify(edit(null))]);
  await run('call accepted', ['call', 'palimpsest_submit_edits', '--args', JSON.stringify(edit(2))]);
  await run('call get', ['call', 'palimpsest_get_target', '--args', JSON.stringify({ target_file_id: id })]);
  await run('call capabilities', ['call', 'palimpsest_capabilities']);
  await run('call read-only write', ['call', 'palimpsest_initialize_target', '--read-only', '--args', '{"filename":"b.md","content":"x"}']);
  await run('call read-only profile', ['call', 'palimpsest_capabilities', '--profile', 'read-only']);
  await run('call invalid', ['call', 'palimpsest_get_target', '--args', '{"target_file_id":"nope"}']);
  await run('call unknown', ['call', 'palimpsest_nope']);
  await run('replay', ['replay', id]);
  await run('replay missing', ['replay', MISSING]);
  await run('replay invalid', ['replay', 'nope']);
  await run('projections rebuild', ['projections', 'rebuild', '--no-progress']);
  await run('approvals list', ['approvals', 'list']);
  await run('approvals list json', ['approvals', 'list', '--json', '--status', 'all']);
  await run('approvals approve unknown', ['approvals', 'approve', MISSING]);
  await run('migrate', ['migrate']);
  const token = await run('tokens create', ['tokens', 'create', '--scopes', 'read,write', '--name', 'e2e', '--json']);
  await run('tokens create reserved', ['tokens', 'create', '--scopes', 'read', '--name', GATEWAY_CREDENTIAL_NAME]);
  await run('tokens list', ['tokens', 'list', '--json']);
  await run('tokens revoke', ['tokens', 'revoke', JSON.parse(token.stdout).token_id]);
  await run('tokens revoke unknown', ['tokens', 'revoke', MISSING]);
  await run('tokens list all', ['tokens', 'list', '--all', '--json']);
  await run('tour', ['tour']);
  const rpc = (id: number, method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
  await run('serve', ['serve'], [rpc(1, 'palimpsest_get_target', { target_file_id: id }), rpc(2, 'palimpsest_get_target', { target_file_id: 'nope' }), rpc(3, 'palimpsest_nope', {})].join('\n') + '\n');
  // The log rolled and its first epoch archived while the gateway runs; the archived target replays from the archive.
  await run('log partitions', ['log', 'partitions']);
  await run('log roll', ['log', 'roll']);
  await run('log archive invalid', ['log', 'archive', '--before', 'yesterday']);
  await run('log archive', ['log', 'archive', '--before', '1000000']);
  await run('log partitions archived', ['log', 'partitions']);
  await run('replay archived', ['replay', id]);
  return out;
}

/** The first local command creates the embedded database and says so; the gateway's store already exists. */
function withoutFirstStart(stderr: string): string {
  return stderr.replace(/^palimpsest: (creating the embedded database|restored the prepared image|.*: running initdb|applied \d+ migrations|embedded database ready).*\n/gm, '');
}

function comparable(results: Results, dataDir: string) {
  return Object.fromEntries(
    Object.entries(results).map(([key, r]) => {
      const stdout = key.startsWith('tokens list') && r.code === 0 ? withoutGatewayTokens(r.stdout) : r.stdout;
      // Through the gateway, migrate adds one line on stderr saying so; every other stderr is the same.
      const stderr = key === 'migrate' ? '' : normalized(withoutFirstStart(r.stderr), dataDir);
      return [key, { code: r.code, signal: r.signal, stdout: normalized(stdout, dataDir), stderr }];
    }),
  );
}

/** The policy file is read by the gateway: through it, `--profile reviewed` is the gateway's profile. */
function freshEnv(root: string, name: string): Env {
  return { DATABASE_URL: '', PALIMPSEST_DATA_DIR: join(root, name), PALIMPSEST_POLICY_FILE: join(root, 'policy.yaml') };
}

describe('CLI commands while a gateway holds the embedded data directory', () => {
  let root: string;
  let held: Env;
  let api: ApiProcess | undefined;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'palimpsest-cli-gw-'));
    writeFileSync(join(root, 'policy.yaml'), 'profiles:\n  reviewed: { mode: allow_all, approve: true }\n');
    held = freshEnv(root, 'held');
  });
  afterAll(async () => {
    await api?.stop('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  it('every store-using command answers through the gateway exactly as it does locally', async () => {
    // The two sides have their own data directories: the local sequence runs while the gateway starts and answers its own.
    const throughGateway = async () => {
      api = await startApi(held, ['--host', '0.0.0.0', '--no-local-token']);
      return commandSequence(held);
    };
    const [local, through] = await Promise.all([commandSequence(freshEnv(root, 'local')), throughGateway()]);
    const file = gatewayFilePath(held.PALIMPSEST_DATA_DIR!);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const address = readGatewayAddress(held.PALIMPSEST_DATA_DIR!)!;
    expect(address.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/); // the wildcard listen host, published as loopback
    expect(address.token).toMatch(/^pal_/);

    expect(through.migrate!.stderr).toContain(`migrating through the gateway (pid ${address.pid}, ${address.url})`);
    expect(comparable(through, held.PALIMPSEST_DATA_DIR!)).toEqual(comparable(local, join(root, 'local')));
    // The sequence does real work and real refusals on both sides (equal failures would compare equal too).
    const codes = Object.fromEntries(Object.entries(through).map(([key, r]) => [key, r.code]));
    expect(codes).toMatchObject({ serve: 0, 'call accepted': 0, replay: 0, 'projections rebuild': 0, 'tokens revoke': 0, tour: 0, 'call invalid': 2, 'replay missing': 2, 'tokens revoke unknown': 2, 'tokens create reserved': 2, 'approvals approve unknown': 1 });
    expect(JSON.parse(through['call accepted']!.stdout)).toMatchObject({ status: 'accepted', version: 1 });
    expect(through.serve!.stdout.trim().split('\n').map((line) => Object.keys(JSON.parse(line)))).toEqual([['jsonrpc', 'id', 'result'], ['jsonrpc', 'id', 'error'], ['jsonrpc', 'id', 'error']]);
    expect(JSON.parse(through['projections rebuild']!.stdout)).toMatchObject({ equal: true, streams: 1 });
    expect(codes).toMatchObject({ 'log roll': 0, 'log archive': 0, 'log archive invalid': 2, 'replay archived': 0 });
    expect(JSON.parse(through['log archive']!.stdout).archived).toEqual([expect.objectContaining({ epoch: 0, table: expect.stringMatching(/^palimpsest_archive\.events_e0$/) })]);
    expect(JSON.parse(through['replay archived']!.stdout)).toMatchObject({ status: 'success', materialized_state_matches: true });
  }, 420_000); // some 25 processes each side; the local ones each open PGlite

  it('an apply waiting for approval through the gateway is approved or declined by the operator through it too', async () => {
    const env = held;
    const address = readGatewayAddress(env.PALIMPSEST_DATA_DIR!)!;
    const gateway = new HttpClient(address.url, address.token);
    const call = async (operation: string, args: unknown, extra: string[] = []) => {
      const r = await runCli(['call', operation, ...extra, '--args', JSON.stringify(args)], { env });
      return { code: r.code, out: JSON.parse(r.stdout) };
    };
    for (const verb of ['approve', 'decline'] as const) {
      const target = (await call('palimpsest_initialize_target', { filename: `${verb}.md`, content: `${verb}\n` })).out.target_file_id;
      const proposed = await call('palimpsest_change_propose', { request_id: `p-${verb}`, base: [{ target_file_id: target, version: 0 }], operations: [{ kind: 'replace_all', target_file_id: target, replacement: `${verb}d\n` }] });
      const candidate = proposed.out.candidate.id as string;
      const applying = call('palimpsest_change_apply', { candidate, expected_candidate_version: 1, request_id: `a-${verb}` }, ['--profile', 'reviewed']);
      // Wait for the apply to be held, looking through the gateway's own route (one request a look, where
      // each look through the CLI would be a process); then the operator lists it through the CLI.
      const pending = async () => ((await gateway.get('/v1/approvals')).body?.approvals as { candidate: string }[] | undefined)?.some((a) => a.candidate === candidate);
      for (let i = 0; i < 600 && !(await pending()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      const listed = await runCli(['approvals', 'list', '--json'], { env });
      expect(listed.code).toBe(0);
      const waiting = (JSON.parse(listed.stdout) as { approval_id: string; candidate: string }[]).find((a) => a.candidate === candidate);
      expect(waiting).toMatchObject({ candidate, approval_id: expect.stringMatching(/\S/) });
      const decided = await runCli(['approvals', verb, waiting!.approval_id, '--by', 'ops', '--note', 'e2e'], { env });
      expect({ code: decided.code, out: JSON.parse(decided.stdout) }).toMatchObject({
        code: 0,
        out: { status: 'ok', approval: { status: verb === 'approve' ? 'granted' : 'declined', decided_by: 'ops' } },
      });
      const applied = await applying;
      if (verb === 'approve') expect(applied.out).toMatchObject({ status: 'ok', receipt: { outcome: 'applied' } });
      else expect(applied.out.error).toMatchObject({ code: 'permission_denied', reason: 'approval_declined' });
    }
  }, 120_000);

  it('a gateway that does not answer, then a killed one: the first is one clear line, the stale file of the second is ignored', async () => {
    const dataDir = held.PALIMPSEST_DATA_DIR!;
    const { pid } = readGatewayAddress(dataDir)!;
    process.kill(pid, 'SIGSTOP');
    let stopped: CliResult;
    try {
      stopped = await runCli(['tokens', 'list', '--json'], { env: held });
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect(stopped.code).toBe(1);
    expect(stopped.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^palimpsest: data directory is in use by pid ${pid} .*does not answer /health: .*stop it \\(kill ${pid}\\)`))]);

    const before = await runCli(['call', 'palimpsest_capabilities'], { env: held });
    await api!.stop('SIGKILL');
    api = undefined;
    expect(readGatewayAddress(dataDir)?.pid).toBe(pid); // left behind, with the lock
    const after = await runCli(['call', 'palimpsest_capabilities'], { env: held });
    expect({ code: after.code, stdout: after.stdout }).toEqual({ code: 0, stdout: before.stdout });
    expect((await runCli(['tokens', 'list', '--json'], { env: held })).code).toBe(0);
  }, 120_000);

  it('a data directory held by something else (palimpsest mcp) is one line saying which pid and what to do, exit 1', async () => {
    const mcp = spawn(process.execPath, [CLI_BIN, 'mcp'], { cwd: REPO_ROOT, env: { ...process.env, ...held }, stdio: ['pipe', 'pipe', 'pipe'] });
    mcp.stdout.resume();
    try {
      await new Promise<void>((resolve, reject) => {
        let err = '';
        mcp.stderr.on('data', (d) => (err += d) && /ready/.test(err) && resolve());
        mcp.once('exit', (code) => reject(new Error(`palimpsest mcp exited ${code}: ${err}`)));
      });
      const r = await runCli(['replay', MISSING], { env: held });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^palimpsest: data directory is in use by pid ${mcp.pid} \\(palimpsest mcp, .*\\), which is not a gateway`));
      expect(lines[0]).toContain('run `palimpsest api` in its place');
      expect(lines[0]).toContain('PALIMPSEST_DATA_DIR');
      expect(lines[0]).toContain('DATABASE_URL');
    } finally {
      mcp.stdin.end();
      await new Promise((resolve) => (mcp.exitCode === null ? mcp.once('exit', resolve) : resolve(null)));
    }
  }, 60_000);

  it('a clean shutdown removes the published file and its credential (no row left, even revoked); commands then run locally', async () => {
    const gateway = await startApi(held, ['--no-local-token']);
    const dataDir = held.PALIMPSEST_DATA_DIR!;
    const credential = readGatewayAddress(dataDir)!.token!;
    expect((await gateway.stop()).code).toBe(0);
    expect(existsSync(gatewayFilePath(dataDir))).toBe(false);
    const listed = await runCli(['tokens', 'list', '--all', '--json'], { env: held });
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { name: string }[]).map((t) => t.name)).not.toContain(GATEWAY_CREDENTIAL_NAME);
    expect(credential).toMatch(/^pal_/);
  }, 90_000);
});
