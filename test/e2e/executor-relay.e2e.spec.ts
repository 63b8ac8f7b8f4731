import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { openDb } from '@palimpsest/store/open-db';
import { isolatedStore } from '../support/cli-process';
import { rawLink, startConnect, waitFor, type ConnectProcess, type RawLink } from '../support/executor-link-client';
import { HttpClient } from '../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../support/http-server';
import { connectHttp, structuredAnswer } from '../support/mcp-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
/** The deadline of a relayed file call here: how long a call waits for an executor that went away. */
const RELAY_TIMEOUT_MS = 3_000;

/**
 * One real `palimpsest api`, two real `palimpsest connect` processes with their own project directories,
 * and an MCP client over the gateway's /mcp: choosing a project, reading, editing and running a command on
 * the executors' disks, the calls on the gateway's record, a resent idempotency key applied once, and a
 * hostile executor's answers refused without touching the others.
 */
describe(`executor relay (MCP client → palimpsest api → palimpsest connect) on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let api: ApiProcess;
  let http: HttpClient;
  let agent: Client;
  let tokens: Record<string, { token: string; token_id: string }>;
  let dirs: { root: string; site: string; docs: string };
  const executors: ConnectProcess[] = [];
  const call = (name: string, args: Record<string, unknown> = {}) => structuredAnswer(agent, name, args);
  const hostile = async (slug: string): Promise<RawLink> => {
    const link = await rawLink(`${api.url.replace(/^http/, 'ws')}/v1/executors/connect`, tokens.raw!.token);
    if (!('ws' in link)) throw new Error(`upgrade refused: ${link.status}`);
    link.send({ type: 'hello', protocolVersion: 1, deviceId: `dev_${slug}`, cliVersion: 'raw', platform: 'test', projects: [{ id: `prj_${slug}`, slug }] });
    await link.next('hello.ack');
    return link;
  };

  beforeAll(async () => {
    store = await isolatedStore();
    tokens = await seedTokens(store.env, { site: 'executor', docs: 'executor', raw: 'executor', agent: 'read,write' });
    api = await startApi({ ...store.env, PALIMPSEST_RELAY_TIMEOUT_MS: String(RELAY_TIMEOUT_MS) }, ['--no-local-token']);
    http = new HttpClient(api.url, tokens.agent!.token);
    dirs = { root: mkdtempSync(join(tmpdir(), 'palimpsest-relay-')), site: '', docs: '' };
    dirs.site = mkdtempSync(join(dirs.root, 'site-'));
    dirs.docs = mkdtempSync(join(dirs.root, 'docs-'));
    writeFileSync(join(dirs.site, 'notes.txt'), 'alpha\n');
    writeFileSync(join(dirs.docs, 'readme.md'), '# Docs\n');
    // The docs machine's owner allows reads only there, whatever the gateway allows.
    const policy = join(dirs.root, 'docs-policy.json');
    writeFileSync(policy, JSON.stringify({ mode: 'read_only' }));
    executors.push(startConnect(api.url, tokens.site!.token, { site: dirs.site }), startConnect(api.url, tokens.docs!.token, { docs: dirs.docs }, {}, ['--policy', `docs=${policy}`]));
    const health = async () => (await http.get('/health', undefined, { token: null })).body.info.executors.connected as number;
    await waitFor(health, (n) => n === 2, 60_000, 'both executors connected');
    // Each project's own store opens beside the link; its first call would wait for it.
    await waitFor(async () => executors.map((e) => e.stderr()), (s) => s.every((line) => /project \w+ ready/.test(line)), 60_000, 'both projects ready');
    ({ client: agent } = await connectHttp(api.url, tokens.agent!.token));
  }, 120_000);

  afterAll(async () => {
    await agent?.close();
    for (const e of executors) await e.stop();
    await api?.stop();
    await store?.dispose();
    if (dirs) rmSync(dirs.root, { recursive: true, force: true });
  });

  it('lists the projects, asks for a choice, and keeps the choice per client', async () => {
    expect(await call('read_file', { path: 'notes.txt' })).toMatchObject({
      status: 'invalid_argument',
      code: 'NO_ACTIVE_PROJECT',
      answer: 'NO_ACTIVE_PROJECT',
      next_actions: [{ operation: 'list_projects' }],
    });
    const listed = await call('list_projects');
    expect(listed).toMatchObject({ status: 'ok', active: null });
    expect((listed.projects as { slug: string; online: boolean }[]).map((p) => [p.slug, p.online]).sort()).toEqual([['docs', true], ['site', true]]);
    expect(await call('set_active_project', { project: 'nowhere' })).toMatchObject({ status: 'not_found', code: 'UNKNOWN_PROJECT' });
    expect(await call('set_active_project', { project: 'site' })).toMatchObject({ status: 'ok', project: { slug: 'site', online: true, active: true } });
    expect(await call('get_active_project')).toMatchObject({ status: 'ok', project: { slug: 'site' } });
    // Another client session has chosen nothing.
    const other = await connectHttp(api.url, tokens.agent!.token);
    expect(await structuredAnswer(other.client, 'get_active_project', {})).toMatchObject({ code: 'NO_ACTIVE_PROJECT' });
    await other.client.close();
  });

  it('reads, edits and runs a command on the executor\'s disk; a project argument reaches the other one, under its local policy', async () => {
    expect(await call('read_file', { path: 'notes.txt' })).toMatchObject({ status: 'ok', content: 'alpha\n', totalLines: 1 });
    const edited = await call('edit_file', { path: 'notes.txt', oldString: 'alpha', newString: 'beta' });
    expect(edited).toMatchObject({ status: 'ok' });
    expect(readFileSync(join(dirs.site, 'notes.txt'), 'utf8')).toBe('beta\n');
    expect(await call('read_file', { project: 'docs', path: 'readme.md' })).toMatchObject({ status: 'ok', content: '# Docs\n' });
    // The local policy narrows the hosted one: a write there is FORBIDDEN, and nothing is written.
    expect(await call('write_file', { project: 'docs', path: 'guide/intro.md', content: 'Hello\n' })).toMatchObject({ answer: 'FORBIDDEN' });
    expect(existsSync(join(dirs.docs, 'guide'))).toBe(false);
    expect(await call('read_file', { path: 'readme.md' })).toMatchObject({ status: 'not_found' }); // still site
    const ran = await call('run_command', { command: 'cat notes.txt' });
    expect(ran).toMatchObject({ status: 'ok', exitCode: 0, stdout: 'beta\n' });
    expect(await call('read_file', { path: '../outside', project: 'docs' })).toMatchObject({ answer: 'PATH_ESCAPE' });
    expect(await call('read_file', { path: 'notes.txt', project: 'nope' })).toMatchObject({ status: 'not_found', code: 'UNKNOWN_PROJECT' });
  });

  it('answers a resent idempotency key with the recorded outcome and never applies it twice', async () => {
    const args = { path: 'notes.txt', oldString: 'beta', newString: 'beta!', client_request_id: 'edit-once-1' };
    const first = await call('edit_file', args);
    expect(first).toMatchObject({ status: 'ok' });
    expect(readFileSync(join(dirs.site, 'notes.txt'), 'utf8')).toBe('beta!\n');
    expect(await call('edit_file', args)).toEqual(first);
    expect(readFileSync(join(dirs.site, 'notes.txt'), 'utf8')).toBe('beta!\n'); // not beta!!
    expect(await call('edit_file', { ...args, newString: 'gamma' })).toMatchObject({ code: 'idempotency_key_conflict' });
  });

  it('refuses a hostile executor\'s answers and closes its link alone; its callers learn the outcome is unknown', async () => {
    const evil = await hostile('evil');
    const asked = call('read_file', { path: 'x', project: 'evil' });
    const toolCall = await evil.next('tool.call');
    expect(toolCall).toMatchObject({ projectId: 'prj_evil', tool: 'read_file', arguments: { path: 'x' }, requestId: expect.stringMatching(/^rq_/) });
    expect(Number(toolCall.expiresAt) - Number(toolCall.issuedAt)).toBe(RELAY_TIMEOUT_MS);
    evil.send({ type: 'tool.result', requestId: toolCall.requestId, durationMs: 1, result: { ok: true, value: { status: 'pwned' } } });
    expect(await evil.closed).toEqual({ code: 4400, reason: expect.stringMatching(/^invalid_message: tool.result for rq_\w+: the value is not an answer of read_file/) });
    expect(await asked).toMatchObject({ code: 'LOCAL_EXECUTOR_OFFLINE', outcome: 'unknown', answer: 'LOCAL_EXECUTOR_OFFLINE' });
    expect(await call('read_file', { path: 'x', project: 'evil' })).toMatchObject({ code: 'LOCAL_EXECUTOR_OFFLINE' });

    const liar = await hostile('liar');
    const pending = call('read_file', { path: 'x', project: 'liar' });
    const second = await liar.next('tool.call');
    liar.send({ type: 'tool.result', requestId: second.requestId, durationMs: 'soon', result: { ok: true, value: {} } });
    expect(await liar.closed).toMatchObject({ code: 4400, reason: expect.stringMatching(/^invalid_message: schema_violation at \/durationMs/) });
    await pending;
    // Nor can one take over another executor's project by naming it.
    const thief = await rawLink(`${api.url.replace(/^http/, 'ws')}/v1/executors/connect`, tokens.raw!.token);
    if (!('ws' in thief)) throw new Error('upgrade refused');
    thief.send({ type: 'hello', protocolVersion: 1, deviceId: 'dev_thief', cliVersion: 'raw', platform: 'test', projects: [{ id: 'prj_thief', slug: 'site' }] });
    expect(await thief.closed).toEqual({ code: 4422, reason: 'invalid_hello: project "site" is held by another executor connected now' });
    // The real executors never noticed.
    expect(await call('read_file', { path: 'notes.txt' })).toMatchObject({ status: 'ok', content: 'beta!\n' });
    expect((await http.get('/health', undefined, { token: null })).body.info.executors.connected).toBe(2);
  }, 30_000);

  it('keeps every relayed call on the gateway\'s record, each key sent and answered once', async () => {
    await agent.close();
    for (const e of executors.splice(0)) expect(await e.stop()).toEqual({ code: 0, signal: null });
    expect((await api.stop()).code).toBe(0);
    const db = store.env.DATABASE_URL ? await openDb({ databaseUrl: store.env.DATABASE_URL }) : await openDb({ dataDir: store.env.PALIMPSEST_DATA_DIR! });
    try {
      const { rows } = await db.query<{ type: string; data: Record<string, unknown> }>(`SELECT event_type AS type, data FROM events WHERE stream_id LIKE 'relay-call-%' ORDER BY global_position`);
      const sent = rows.filter((r) => r.type === 'RelayCallSent').map((r) => r.data);
      const answered = rows.filter((r) => r.type === 'RelayCallAnswered').map((r) => r.data);
      expect(sent.filter((d) => d.key === 'edit-once-1')).toEqual([expect.objectContaining({ tool: 'edit_file', arguments: { path: 'notes.txt', oldString: 'beta', newString: 'beta!' } })]);
      expect(answered.filter((d) => d.request_id === sent.find((s) => s.key === 'edit-once-1')!.request_id)).toEqual([expect.objectContaining({ result: 'ok', status: 'ok' })]);
      expect(sent.map((d) => d.tool)).toEqual(expect.arrayContaining(['read_file', 'edit_file', 'write_file', 'run_command']));
      // The hostile executors' calls were sent and never answered: on the record as in doubt.
      const evil = sent.filter((d) => d.project_id === 'prj_evil' || d.project_id === 'prj_liar').map((d) => d.request_id);
      expect(evil).toHaveLength(2);
      expect(answered.filter((d) => evil.includes(d.request_id as string))).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
