import { CallToolResultSchema, LATEST_PROTOCOL_VERSION, LoggingMessageNotificationSchema, type LoggingMessageNotification, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { servedWithoutExecutors, withoutRelayArguments } from '@palimpsest/protocol/catalog/operations/projects.operations';
import { isolatedStore } from '../support/cli-process';
import { HttpClient } from '../support/http-client';
import { connectHttp, connectMcp, structuredAnswer } from '../support/mcp-client';
import { seedTokens, startApi, type ApiProcess } from '../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const IDLE_MS = 3_000;
const MAX_SESSIONS = 8;
const BROWSER_APP = 'https://app.example.com';

interface SseEvent {
  id?: string;
  data: any;
}

function parseSse(text: string): SseEvent[] {
  return text
    .split(/\n\n/)
    .map((block) => {
      const id = /^id: ?(.*)$/m.exec(block)?.[1];
      const data = [...block.matchAll(/^data: ?(.*)$/gm)].map((m) => m[1]).join('\n');
      return { id, data: data ? JSON.parse(data) : undefined };
    })
    .filter((e) => e.id !== undefined || e.data !== undefined);
}

/** Raw JSON-RPC over POST /mcp (for what the SDK client hides: headers, status codes, session ids). */
async function post(url: string, token: string | null, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(new URL('/mcp', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const sse = (res.headers.get('content-type') ?? '').includes('text/event-stream');
  return { status: res.status, headers: res.headers, messages: sse ? parseSse(text).map((e) => e.data).filter(Boolean) : [], json: !sse && text ? JSON.parse(text) : undefined };
}

const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

/** initialize + notifications/initialized over raw HTTP; answers the session id. */
async function rawSession(url: string, token: string | null): Promise<string> {
  const init = await post(url, token, initialize);
  expect(init.status).toBe(200);
  const id = init.headers.get('mcp-session-id')!;
  const headers = { 'mcp-session-id': id, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
  expect((await post(url, token, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
  return id;
}

/** GET /mcp (the session's notification stream), read until `enough` says so, then disconnect. */
async function readStream(url: string, token: string, sessionId: string, enough: (events: SseEvent[]) => boolean, lastEventId?: string): Promise<{ status: number; events: SseEvent[] }> {
  const abort = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream', authorization: `Bearer ${token}`, 'mcp-session-id': sessionId, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
  if (lastEventId) headers['last-event-id'] = lastEventId;
  const res = await fetch(new URL('/mcp', url), { headers, signal: abort.signal });
  if (res.status !== 200) return { status: res.status, events: [] };
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const timer = setTimeout(() => abort.abort(), 15_000);
  try {
    while (!enough(parseSse(text))) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  return { status: 200, events: parseSse(text) };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;
/** What differs between two stores for the same call: generated ids and clock readings. */
const normalized = (value: unknown) => JSON.parse(JSON.stringify(value).replace(UUID, '<uuid>').replace(TIME, '<time>'));

describe(`MCP over Streamable HTTP at /mcp on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let api: ApiProcess;
  let tokens: Record<string, { token: string; token_id: string }>;
  let http: HttpClient;
  const token = (name: string) => tokens[name]!.token;

  beforeAll(async () => {
    store = await isolatedStore();
    tokens = await seedTokens(
      store.env,
      { all: 'read,write,operator,auditor', reader: 'read', hidden: 'read,write', other: 'read,write,operator,auditor' },
      { hidden: { mode: 'allow_all', tools: ['palimpsest_initialize_target', 'palimpsest_read_target', 'palimpsest_submit_edits', 'palimpsest_replay'] } },
    );
    api = await startApi({ ...store.env, PALIMPSEST_CORS_ORIGINS: BROWSER_APP, PALIMPSEST_MCP_SESSION_IDLE_MS: String(IDLE_MS), PALIMPSEST_MCP_MAX_SESSIONS: String(MAX_SESSIONS) }, ['--no-local-token']);
    http = new HttpClient(api.url, token('all'));
  });
  afterAll(async () => {
    const stopped = await api?.stop();
    expect(stopped?.code).toBe(0);
    await store?.dispose();
  });

  it("lists, per token, what its scopes and policy reach: stdio's full and read-only lists, a policy's tools", async () => {
    const stdioStore = await isolatedStore();
    try {
      const stdioList = async (args: string[]) => {
        const stdio = await connectMcp(stdioStore.env, args); // one at a time: each holds the embedded store
        const { tools } = await stdio.client.listTools();
        await stdio.close();
        return tools;
      };
      const stdioFull = await stdioList([]);
      const stdioReadOnly = await stdioList(['--profile', 'read-only']);

      const list = async (name: string) => {
        const { client } = await connectHttp(api.url, token(name));
        const { tools } = await client.listTools();
        await client.close();
        return tools;
      };
      // A gateway also lists what its executors' projects add (docs/executors.md); stdio has no executors.
      const withoutProjects = (tools: Tool[]) =>
        tools.filter((t) => servedWithoutExecutors(t.name)).map((t) => ({ ...t, inputSchema: withoutRelayArguments(t.name, t.inputSchema) as Tool['inputSchema'] }));
      const all = await list('all');
      expect(withoutProjects(all)).toEqual(stdioFull);
      expect(all.filter((t) => !servedWithoutExecutors(t.name)).map((t) => t.name).sort()).toEqual(['get_active_project', 'list_projects', 'set_active_project']);
      const auditorTools = ['palimpsest_replay', 'palimpsest_get_attempt_log', 'palimpsest_get_manifest_ledger', 'palimpsest_list_sessions', 'palimpsest_session_activity', 'palimpsest_prove_event', 'palimpsest_prove_consistency'];
      expect(withoutProjects(await list('reader'))).toEqual(stdioReadOnly.filter((t) => !auditorTools.includes(t.name))); // the read scope reaches no auditor route
      expect((await list('hidden')).map((t) => t.name)).toEqual(['palimpsest_initialize_target', 'palimpsest_read_target', 'palimpsest_submit_edits']);
    } finally {
      await stdioStore.dispose();
    }
  });

  it('answers an edit exactly as stdio does, and refuses what the token may not call', async () => {
    const stdioStore = await isolatedStore();
    const stdio = await connectMcp(stdioStore.env);
    const { client } = await connectHttp(api.url, token('all'));
    try {
      const viaHttp = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }, CallToolResultSchema);
      const content = 'alpha beta alpha\r\nsecond line 😀\n';
      const a = (await structuredAnswer(client, 'palimpsest_initialize_target', { filename: 'doc.md', content })).target_file_id as string;
      const b = (await stdio.call('palimpsest_initialize_target', { filename: 'doc.md', content })).result.target_file_id;
      const edit = (id: string) => ({ target_file_id: id, intent: 'Rename', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'gamma', occurrence_index: 2 }] });
      const overHttp = await viaHttp('palimpsest_submit_edits', edit(a));
      const overStdio = await stdio.client.callTool({ name: 'palimpsest_submit_edits', arguments: edit(b) });
      expect(overHttp.structuredContent).toMatchObject({ status: 'accepted', version: 1 });
      expect(normalized(overHttp)).toEqual(normalized(overStdio));

      const reader = await connectHttp(api.url, token('reader'));
      const write = await reader.client.callTool({ name: 'palimpsest_submit_edits', arguments: edit(a) });
      expect(write).toMatchObject({ isError: true, structuredContent: { code: 'operation_not_permitted', failure_detail: expect.stringContaining('read-only profile') } });
      const audit = await reader.client.callTool({ name: 'palimpsest_replay', arguments: { target_file_id: a } });
      expect(audit).toMatchObject({ isError: true, structuredContent: { code: 'operation_not_permitted', failure_detail: expect.stringContaining('palimpsest_replay is not among the tools') } });
      expect((await reader.client.callTool({ name: 'palimpsest_read_target', arguments: { target_file_id: a } })).structuredContent).toMatchObject({ version: 1 });
      // The read scope runs the read-only profile: scope discovery answers, a selection (it would record) is refused.
      const discovered = await reader.client.callTool({ name: 'palimpsest_observe_scope', arguments: { target_file_id: a, kind: 'section' } });
      expect(discovered).toMatchObject({ isError: false, structuredContent: { status: 'candidates', observation_id: null } });
      const selected = await reader.client.callTool({ name: 'palimpsest_observe_scope', arguments: { target_file_id: a, symbol_name: 'x' } });
      expect(selected).toMatchObject({ isError: true, structuredContent: { code: 'operation_not_permitted' } });
      const rest = new HttpClient(api.url, token('reader'));
      expect(await rest.post(`/v1/targets/${a}/scopes`, { kind: 'section' })).toMatchObject({ status: 200, body: { status: 'candidates' } });
      expect(await rest.post(`/v1/targets/${a}/scopes`, { symbol_name: 'x' })).toMatchObject({ status: 403, body: { error: { reason: 'operation_not_permitted' } } });
      await reader.client.close();
    } finally {
      await client.close();
      await stdio.close();
      await stdioStore.dispose();
    }
  });

  it('answers 401 with a Bearer challenge without a valid token, and 403 to a foreign Origin', async () => {
    const missing = await post(api.url, null, initialize);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="palimpsest"');
    expect(missing.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, data: { error: { code: 'unauthenticated', reason: 'missing_token' } } } });
    const unknown = await post(api.url, 'pal_' + 'x'.repeat(43), initialize);
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toBe('Bearer realm="palimpsest", error="invalid_token"');
    await expect(connectHttp(api.url, null)).rejects.toThrow(/needs a bearer token/);

    const foreign = await post(api.url, token('all'), initialize, { origin: 'http://rebound.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.json).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringContaining('DNS rebinding'), data: { error: { code: 'permission_denied', reason: 'origin_not_allowed' } } } });
    const { port } = new URL(api.url);
    expect((await post(api.url, token('all'), initialize, { origin: `http://localhost:${port}` })).status).toBe(200);

    // A page of an origin PALIMPSEST_CORS_ORIGINS allows: its preflight, and an answer it may read.
    const preflight = await fetch(new URL('/mcp', api.url), {
      method: 'OPTIONS',
      headers: { origin: BROWSER_APP, 'access-control-request-method': 'DELETE', 'access-control-request-headers': 'authorization,content-type,mcp-session-id,mcp-protocol-version' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('DELETE');
    const browser = await post(api.url, token('all'), initialize, { origin: BROWSER_APP });
    expect(browser.status).toBe(200);
    expect(browser.headers.get('access-control-allow-origin')).toBe(BROWSER_APP);
    expect(browser.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
  });

  it('binds a session to its token, and DELETE ends it', async () => {
    const id = await rawSession(api.url, token('all'));
    const headers = { 'mcp-session-id': id, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expect((await post(api.url, token('all'), list, headers)).messages[0].result.tools.length).toBeGreaterThan(10);
    const stolen = await post(api.url, token('other'), list, headers);
    expect(stolen).toMatchObject({ status: 403, json: { error: { data: { error: { code: 'permission_denied', reason: 'session_of_another_token' } } } } });
    expect((await post(api.url, token('all'), list, { 'mcp-protocol-version': LATEST_PROTOCOL_VERSION })).json.error.data.error.reason).toBe('session_required');

    const ended = await fetch(new URL('/mcp', api.url), { method: 'DELETE', headers: { ...headers, authorization: `Bearer ${token('all')}` } });
    expect(ended.status).toBe(200);
    const after = await post(api.url, token('all'), list, headers);
    expect(after).toMatchObject({ status: 404, json: { error: { code: -32001, data: { error: { code: 'not_found', reason: 'session_not_found' } } } } });

    const metrics = (await http.get('/metrics', undefined, { token: null })).text;
    expect(metrics).toMatch(/palimpsest_mcp_sessions \d+/);
    expect(metrics).toMatch(/palimpsest_mcp_refusals_total\{reason="session_of_another_token"\} 1/);
    expect(metrics).toMatch(/palimpsest_http_requests_total\{method="POST",route="\/mcp",status="200"\} [1-9]/);
    expect(metrics).toMatch(/palimpsest_operation_duration_seconds_count\{operation="palimpsest_submit_edits",status="accepted"\} [1-9]/); // the MCP edit above
  });

  it('notifies a session of appends to the targets it works on; a GET resumed with Last-Event-ID replays what it missed', async () => {
    const sessionId = await rawSession(api.url, token('all'));
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'palimpsest_initialize_target', arguments: { filename: 'w.md', content: 'one two three\n' } } };
    const target = (await post(api.url, token('all'), call, headers)).messages[0].result.structuredContent.target_file_id as string;
    let version = 0;
    const edit = async (match: string, replace: string) => {
      const r = await http.post(`/v1/targets/${target}/edits`, { intent: 'e2e', expected_target_version: version, edits: [{ match, replace }] });
      if (r.status === 200) version++;
      return r;
    };
    const appended = (events: SseEvent[]) => events.filter((e) => e.data?.method === 'notifications/message' && e.data.params.data.target_file_id === target);

    let first: SseEvent[] = [];
    // The creating call's own append (stream version 1) may be announced too: NOTIFY arrives after the answer.
    const live = readStream(api.url, token('all'), sessionId, (events) => (first = appended(events).filter((e) => e.data.params.data.stream_version > 1)).length >= 1);
    await new Promise((r) => setTimeout(r, 300)); // the stream is open
    expect((await edit('one', '1')).status).toBe(200);
    expect((await live).status).toBe(200);
    expect(first[0]!.data.params).toMatchObject({ level: 'info', logger: 'palimpsest.targets', data: { event: 'target_appended', stream_version: 2 } });
    const seen = first[0]!.id!;

    // Disconnected: two more appends, by another client.
    await new Promise((r) => setTimeout(r, 200));
    expect((await edit('two', '2')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect((await edit('three', '3')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500)); // their notifications reached the session

    let resumed = await readStream(api.url, token('all'), sessionId, (events) => appended(events).some((e) => e.data.params.data.stream_version === 4), seen);
    for (let i = 0; resumed.status === 409 && i < 20; i++) {
      await new Promise((r) => setTimeout(r, 100)); // the first stream's close is still being noticed
      resumed = await readStream(api.url, token('all'), sessionId, (events) => appended(events).some((e) => e.data.params.data.stream_version === 4), seen);
    }
    expect(resumed.status).toBe(200);
    const versions = appended(resumed.events).map((e) => e.data.params.data.stream_version);
    expect(versions[versions.length - 1]).toBe(4);
    expect(versions.every((v) => v > 2)).toBe(true); // only what came after Last-Event-ID

    // The SDK client receives them too, on the stream it opens itself.
    const { client } = await connectHttp(api.url, token('all'));
    const received: LoggingMessageNotification['params'][] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void received.push(n.params));
    await client.callTool({ name: 'palimpsest_read_target', arguments: { target_file_id: target } });
    await new Promise((r) => setTimeout(r, 300));
    expect((await edit('1', 'uno')).status).toBe(200);
    for (let i = 0; received.length === 0 && i < 50; i++) await new Promise((r) => setTimeout(r, 100));
    expect(received[0]).toMatchObject({ logger: 'palimpsest.targets', data: { target_file_id: target, stream_version: 5 } });
    await client.close();
  });

  it('closes a session left idle, and refuses sessions past the cap with a clear error', async () => {
    const idle = await rawSession(api.url, token('all'));
    await new Promise((r) => setTimeout(r, IDLE_MS * 1.5 + 500));
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expect((await post(api.url, token('all'), list, { 'mcp-session-id': idle, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION })).status).toBe(404);

    const opened: string[] = [];
    let refused: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i <= MAX_SESSIONS && !refused; i++) {
      const r = await post(api.url, token('all'), initialize);
      if (r.status === 200) opened.push(r.headers.get('mcp-session-id')!);
      else refused = r;
    }
    expect(refused).toMatchObject({ status: 429, json: { error: { message: expect.stringContaining('PALIMPSEST_MCP_MAX_SESSIONS'), data: { error: { code: 'resource_limit', reason: 'too_many_sessions' } } } } });
    expect(refused!.headers.get('retry-after')).toBe('5');
    for (const id of opened) {
      await fetch(new URL('/mcp', api.url), { method: 'DELETE', headers: { 'mcp-session-id': id, authorization: `Bearer ${token('all')}` } });
    }
    expect((await post(api.url, token('all'), initialize)).status).toBe(200);
  });

  it('stops with sessions open: their streams end, the gateway exits 0 well within its grace period', async () => {
    const { client } = await connectHttp(api.url, token('all'));
    const closed = new Promise<void>((resolve) => (client.onclose = resolve));
    await client.listTools();
    await new Promise((r) => setTimeout(r, 300)); // its GET stream is open
    const started = Date.now();
    const stopped = await api.stop();
    expect(stopped.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    await client.close();
    await closed;
  });
});
