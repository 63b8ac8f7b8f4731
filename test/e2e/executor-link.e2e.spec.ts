import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXECUTOR_MAX_MESSAGE_BYTES } from '@palimpsest/protocol/executor/executor-protocol';
import { isolatedStore, runCli } from '../support/cli-process';
import { rawLink, startConnect, waitFor, type ConnectProcess, type RawLink } from '../support/executor-link-client';
import { HttpClient } from '../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const INTERVAL_MS = 200;
const TIMEOUT_MS = 1_500;
/** How long a state change may take to show: the heartbeat timeout, and room for a loaded machine. */
const BOUND_MS = TIMEOUT_MS + 3_000;
/** How long a started executor may take to connect: it opens each project's own store first (the first time, from the prepared image). */
const CONNECT_MS = 60_000;

interface ExecutorReport {
  device_id: string;
  projects: { id: string; slug: string }[];
  connected_at: string;
  last_heartbeat_at: string | null;
}

const hello = (deviceId: string) => ({ type: 'hello', protocolVersion: 1, deviceId, cliVersion: 'raw', platform: 'test', projects: [{ id: `prj_${deviceId}`, slug: deviceId }] });

/**
 * One real `palimpsest api` and real `palimpsest connect` processes over real WebSockets: presence in
 * /health and /metrics, a SIGKILLed executor gone and back, hostile clients refused one by one while the
 * executors stay connected, and a revoked token's connection closed.
 */
describe(`executor link (palimpsest connect to palimpsest api) on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let api: ApiProcess;
  let http: HttpClient;
  let wsUrl: string;
  let tokens: Record<string, { token: string; token_id: string }>;
  let dirs: { site: string; docs: string; root: string };
  const executors: ConnectProcess[] = [];

  const report = async (): Promise<ExecutorReport[]> => (await http.get('/health', undefined, { token: null })).body.info.executors.executors;
  const slugsOf = (list: ExecutorReport[]) => list.map((e) => e.projects.map((p) => p.slug).join('+')).sort();
  const connected = (list: ExecutorReport[]) => slugsOf(list).join(',') === 'docs,site';
  const open = async (token: string | null): Promise<RawLink> => {
    const link = await rawLink(wsUrl, token);
    if (!('ws' in link)) throw new Error(`upgrade refused: ${link.status}`);
    return link;
  };

  beforeAll(async () => {
    store = await isolatedStore();
    tokens = await seedTokens(store.env, { site: 'executor', docs: 'executor', raw: 'executor', reader: 'read,write', admin: 'read,write,operator,auditor' });
    api = await startApi({ ...store.env, PALIMPSEST_EXECUTOR_HEARTBEAT_INTERVAL_MS: String(INTERVAL_MS), PALIMPSEST_EXECUTOR_HEARTBEAT_TIMEOUT_MS: String(TIMEOUT_MS) }, ['--no-local-token']);
    http = new HttpClient(api.url, tokens.admin!.token);
    wsUrl = `${api.url.replace(/^http/, 'ws')}/v1/executors/connect`;
    const root = mkdtempSync(join(tmpdir(), 'palimpsest-executors-'));
    dirs = { root, site: mkdtempSync(join(root, 'site-')), docs: mkdtempSync(join(root, 'docs-')) };
    executors.push(startConnect(api.url, tokens.site!.token, { site: dirs.site }), startConnect(api.url, tokens.docs!.token, { docs: dirs.docs }));
  });

  afterAll(async () => {
    // Either stop signal closes the link and exits 0.
    for (const [i, e] of executors.entries()) expect(await e.stop(i === 0 ? 'SIGINT' : 'SIGTERM')).toEqual({ code: 0, signal: null });
    const stopped = await api?.stop();
    expect(stopped?.code).toBe(0);
    await store?.dispose();
    rmSync(dirs.root, { recursive: true, force: true });
  });

  it('shows both executors, their projects and heartbeats in /health, and counts them in /metrics', async () => {
    const list = await waitFor(report, (l) => connected(l) && l.every((e) => e.last_heartbeat_at !== null), CONNECT_MS, 'both executors heartbeating');
    expect(list.map((e) => e.projects[0]!.id)).toEqual(list.map(() => expect.stringMatching(/^prj_[0-9a-f]{32}$/)));
    const metrics = (await http.get('/metrics', undefined, { token: null })).text;
    expect(metrics).toMatch(/^palimpsest_executors_connected 2$/m);
    expect(metrics).toMatch(/^palimpsest_executor_projects 2$/m);
    expect(metrics).toMatch(/^palimpsest_relay_calls_in_flight 0$/m);
    expect(executors.map((e) => e.stderr())).toEqual([expect.stringContaining('connected to ws://'), expect.stringContaining('connected to ws://')]);
    // `palimpsest projects` asks the gateway: both executors, each with its project.
    const listed = await runCli(['projects', '--gateway', api.url, '--json'], { env: store.env });
    expect(listed.code).toBe(0);
    const slugs = (JSON.parse(listed.stdout) as { projects: { slug: string }[] }[]).map((e) => e.projects.map((p) => p.slug)).flat().sort();
    expect(slugs).toEqual(['docs', 'site']);
    const refused = await runCli(['projects', '--gateway', 'not a url'], { env: store.env });
    expect({ code: refused.code, stderr: refused.stderr }).toEqual({ code: 2, stderr: expect.stringContaining('--gateway must be') });
  });

  it('refuses hostile clients one by one, each with its reason, while the executors stay connected', async () => {
    const before = await waitFor(report, connected, BOUND_MS, 'both executors');
    const refusedUpgrade = async (token: string | null) => rawLink(wsUrl, token) as Promise<{ status: number; body: any }>;

    expect(await refusedUpgrade(tokens.reader!.token)).toMatchObject({ status: 403, body: { error: { code: 'permission_denied', reason: 'missing_scope' } } });
    expect(await refusedUpgrade(null)).toMatchObject({ status: 401, body: { error: { code: 'unauthenticated', reason: 'missing_token' } } });
    expect(await refusedUpgrade('pal_' + 'x'.repeat(43))).toMatchObject({ status: 401, body: { error: { reason: 'invalid_token' } } });
    expect(await rawLink(wsUrl.replace('/v1/executors/connect', '/mcp'), tokens.raw!.token)).toMatchObject({ status: 404 });

    const cases: [string, (link: RawLink) => void, number, RegExp][] = [
      ['garbage', (l) => l.send('{"type":"hello",,}'), 4400, /^invalid_message: not_json/],
      ['a message before hello', (l) => l.send({ type: 'heartbeat', at: 1 }), 4409, /^out_of_order: heartbeat before hello$/],
      ['a schema violation', (l) => l.send({ ...hello('bad'), projects: [{ id: 'p' }] }), 4400, /^invalid_message: schema_violation at \/projects\/0\/slug/],
      ['a binary frame', (l) => l.ws.send(Buffer.from([1, 2, 3])), 4400, /binary frames/],
      ['an oversized message', (l) => l.send(`{"type":"heartbeat","pad":"${'x'.repeat(EXECUTOR_MAX_MESSAGE_BYTES)}"}`), 1009, /^$/],
      ['a second hello', (l) => (l.send(hello('twice')), l.send(hello('twice'))), 4409, /^out_of_order: a second hello$/],
      ['a tool.result for nothing asked', (l) => (l.send(hello('liar')), l.send({ type: 'tool.result', requestId: 'r1', durationMs: 1, result: { ok: true, value: 1 } })), 4409, /never sent/],
      ['an unknown protocol version', (l) => l.send({ ...hello('future'), protocolVersion: 99 }), 4426, /^unsupported_protocol_version/],
      ['silence after hello', (l) => l.send(hello('mute')), 4408, /^heartbeat_timeout/],
    ];
    for (const [what, act, code, reason] of cases) {
      const link = await open(tokens.raw!.token);
      act(link);
      const closed = await link.closed;
      expect({ what, code: closed.code, reason: closed.reason }).toEqual({ what, code, reason: expect.stringMatching(reason) });
    }

    // palimpsest connect itself, refused for good: exit 1 with the gateway's reason, no retrying.
    // (A directory of its own: the site executor holds the site project's store.)
    const unfit = startConnect(api.url, tokens.reader!.token, { site: mkdtempSync(join(dirs.root, 'unfit-')) });
    expect(await unfit.exited).toEqual({ code: 1, signal: null });
    expect(unfit.stderr()).toMatch(/refused this executor: the gateway answered 403: This route needs the executor scope/);

    const after = await report();
    expect(slugsOf(after)).toEqual(['docs', 'site']);
    // The same connections, not new ones: their connected_at did not move, their heartbeats did.
    expect(after.map((e) => e.connected_at).sort()).toEqual(before.map((e) => e.connected_at).sort());
    expect(after.map((e) => Date.parse(e.last_heartbeat_at!))).toEqual(after.map(() => expect.any(Number)));
  });

  it('drops a SIGKILLed executor within the heartbeat timeout, and takes it back when it restarts', async () => {
    await waitFor(report, connected, BOUND_MS, 'both executors');
    const killed = executors.shift()!; // site
    expect(await killed.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const without = await waitFor(report, (l) => slugsOf(l).join(',') === 'docs', BOUND_MS, 'the killed executor gone');
    expect(without).toHaveLength(1);
    const restarted = startConnect(api.url, tokens.site!.token, { site: dirs.site });
    executors.unshift(restarted);
    const back = await waitFor(report, connected, CONNECT_MS, 'the restarted executor back');
    expect(back.find((e) => e.projects[0]!.slug === 'site')!.device_id).toMatch(/^dev_[0-9a-f]{32}$/);
  });

  it('closes the link of an executor that stops answering (SIGSTOP) after the heartbeat timeout; resumed, it reconnects', async () => {
    const before = await waitFor(report, connected, BOUND_MS, 'both executors');
    const docs = executors[1]!;
    process.kill(docs.pid, 'SIGSTOP'); // its socket stays open: only the missing heartbeats tell
    try {
      const stoppedAt = Date.now();
      await waitFor(report, (l) => slugsOf(l).join(',') === 'site', BOUND_MS, 'the silent executor dropped');
      expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(TIMEOUT_MS / 2); // not at once: only the timeout tells
    } finally {
      process.kill(docs.pid, 'SIGCONT');
    }
    const back = await waitFor(report, connected, BOUND_MS, 'the resumed executor back');
    const connectedAt = (list: ExecutorReport[]) => list.find((e) => e.projects[0]!.slug === 'docs')!.connected_at;
    expect(Date.parse(connectedAt(back))).toBeGreaterThan(Date.parse(connectedAt(before)));
    expect(docs.stderr()).toMatch(/link lost \((closed 4408: heartbeat_timeout|nothing from the gateway)/);
  });

  it('closes an executor\'s connection as soon as its token is revoked', async () => {
    const link = await open(tokens.raw!.token);
    link.send(hello('revocable'));
    await link.next('hello.ack');
    const beat = setInterval(() => link.send({ type: 'heartbeat', at: Date.now() }), INTERVAL_MS);
    try {
      await waitFor(report, (l) => l.some((e) => e.device_id === 'revocable'), BOUND_MS, 'the raw executor present');
      const revoked = await http.post(`/v1/admin/tokens/${tokens.raw!.token_id}/revoke`, {});
      expect(revoked.status).toBe(200);
      expect(await link.closed).toEqual({ code: 4401, reason: 'token_revoked: the token was revoked' });
      expect(slugsOf(await report())).toEqual(['docs', 'site']);
      expect(await rawLink(wsUrl, tokens.raw!.token)).toMatchObject({ status: 401, body: { error: { reason: 'invalid_token' } } });
    } finally {
      clearInterval(beat);
    }
  });
});
