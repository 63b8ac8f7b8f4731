import { isolatedStore, runCli } from '../support/cli-process';
import { HttpClient } from '../support/http-client';
import { SseReader } from '../support/http-sse';
import { createTokenCli, seedTokens, startApi, type ApiProcess } from '../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const WELL_FORMED_UNKNOWN = `pal_${'A'.repeat(43)}`;
/** One operation at a time, no queue, one event stream: concurrent requests must meet 429. */
const TINY = (env: NodeJS.ProcessEnv) => ({ ...env, PALIMPSEST_API_MAX_CONCURRENCY: '1', PALIMPSEST_API_MAX_QUEUE: '0', PALIMPSEST_API_SSE_MAX_STREAMS: '1' });

/** Tokens and scopes, 401/403, the token CLI, --no-auth and 429 on a deliberately tiny gateway. */
describe(`palimpsest api: tokens, scopes and saturation on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let api: ApiProcess;
  let http: HttpClient;
  const tokens: Record<string, { token: string; token_id: string }> = {};
  let targetId: string;

  beforeAll(async () => {
    store = await isolatedStore();
    Object.assign(tokens, await seedTokens(store.env, { writer: 'read,write', reader: 'read', auditor: 'auditor', operator: 'operator', revoked: 'read' }));
    api = await startApi(TINY(store.env), ['--no-local-token']);
    http = new HttpClient(api.url, tokens.writer!.token);
    targetId = (await http.post('/v1/targets', { filename: 'a.md', content: 'alpha\n' })).body.target_file_id;
  });
  afterAll(async () => {
    await api?.stop();
    await store.dispose();
  });

  it('starts without process warnings on stderr (deprecations of the frameworks it configures included)', () => {
    expect(api.stderr()).toContain('listening on');
    expect(api.stderr()).not.toMatch(/\(node:\d+\) \[?\w*/);
  });

  it('answers 401 with a challenge when the token is missing, malformed or unknown', async () => {
    const none = await http.get(`/v1/targets/${targetId}`, undefined, { token: null });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="palimpsest"');
    expect(none.body).toMatchObject({ status: 'error', error: { code: 'unauthenticated', reason: 'missing_token', retryable: 'none' } });
    const malformed = await http.get(`/v1/targets/${targetId}`, undefined, { token: null, headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(malformed.body.error.reason).toBe('invalid_token');
    const unknown = await http.get(`/v1/targets/${targetId}`, undefined, { token: WELL_FORMED_UNKNOWN });
    expect(unknown).toMatchObject({ status: 401, body: { error: { reason: 'invalid_token' } } });
    expect(unknown.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('authenticates before it reads a body: 401 for a malformed, non-JSON or oversized one', async () => {
    const path = `/v1/targets/${targetId}/edits`;
    const bodies = [
      { raw: '{"intent":', headers: { 'content-type': 'application/json' } },
      { raw: 'intent=x', headers: { 'content-type': 'text/plain' } },
      { raw: `{"intent":"${'x'.repeat(4 * 1024 * 1024)}"}`, headers: { 'content-type': 'application/json' } },
    ];
    for (const body of bodies) {
      const r = await http.request('POST', path, { ...body, token: null });
      expect(r).toMatchObject({ status: 401, body: { error: { code: 'unauthenticated', reason: 'missing_token' } } });
    }
    const reader = http.withToken(tokens.reader!.token);
    expect((await reader.request('POST', path, bodies[1])).status).toBe(403); // scope before body too
  });

  it('answers 403 naming the missing scope; each scope opens its own routes', async () => {
    const reader = http.withToken(tokens.reader!.token);
    expect((await reader.get(`/v1/targets/${targetId}`)).status).toBe(200);
    const write = await reader.post(`/v1/targets/${targetId}/edits`, { intent: 'x', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'b' }] });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ required_scope: 'write', granted_scopes: ['read'], error: { code: 'permission_denied', reason: 'missing_scope' } });
    expect(write.headers.get('www-authenticate')).toContain('scope="write"');
    expect((await http.get(`/v1/targets/${targetId}`, undefined, { token: tokens.revoked!.token })).status).toBe(200);

    expect((await http.get(`/v1/targets/${targetId}/attempts`)).status).toBe(403);
    const auditor = http.withToken(tokens.auditor!.token);
    expect((await auditor.get(`/v1/targets/${targetId}/attempts`)).status).toBe(200);
    expect((await auditor.get(`/v1/targets/${targetId}/ledger`)).status).toBe(200);
    expect((await auditor.post(`/v1/targets/${targetId}/replay`)).body.status).toBe('success');
    expect((await auditor.get(`/v1/targets/${targetId}`)).status).toBe(403);

    expect((await auditor.post('/v1/projections/rebuild')).status).toBe(403);
    const operator = http.withToken(tokens.operator!.token);
    expect((await operator.post('/v1/projections/rebuild')).body).toMatchObject({ status: 'ok', equal: true });
    const all = await operator.post('/v1/replay', { limit: 10 });
    expect(all.body).toMatchObject({ status: 'success', checked: 1, diverged: [], next_after: null });
    expect((await operator.post('/v1/replay', { limit: 0 })).body).toMatchObject({ status: 'invalid_argument', error: { code: 'invalid_arguments' } });
    expect((await operator.post('/v1/replay', { everything: true })).status).toBe(400);

    expect((await http.get('/health', undefined, { token: null })).status).toBe(200);
    expect((await http.get('/metrics', undefined, { token: null })).status).toBe(200);
  });

  it('answers 429 with Retry-After when the service is saturated', async () => {
    const auditor = http.withToken(tokens.auditor!.token);
    const first = await SseReader.open(`${api.url}/v1/targets/${targetId}/events`, { token: auditor.token });
    try {
      expect(first.status).toBe(200);
      const second = await auditor.get(`/v1/targets/${targetId}/events`);
      expect(second).toMatchObject({ status: 429, body: { error: { code: 'resource_limit', reason: 'too_many_streams', retryable: 'same_request' } } });
      expect(second.headers.get('retry-after')).toBe('5');
    } finally {
      first.close();
    }
    // Operation slots: on PGlite an operation never yields to the event loop (the database runs in
    // process, synchronously), so only PostgreSQL's real I/O lets 40 requests overlap on one slot.
    if (backend !== 'postgres') return;
    const answers = await Promise.all(Array.from({ length: 40 }, () => http.get(`/v1/targets/${targetId}/occurrences`, { text: 'a' })));
    expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true);
    const saturatedAnswers = answers.filter((a) => a.status === 429);
    expect(saturatedAnswers.length).toBeGreaterThan(0);
    const saturated = saturatedAnswers[0];
    expect(saturated!.headers.get('retry-after')).toBe('1');
    expect(saturated!.body.error).toMatchObject({ code: 'resource_limit', reason: 'saturated', retryable: 'same_request' });
    expect((await http.get('/metrics', undefined, { token: null })).text).toMatch(/palimpsest_http_saturated_total [1-9]/);
  });

  it('lists tokens without secrets and revokes them', async () => {
    const revoke = async () => {
      const r = await runCli(['tokens', 'revoke', tokens.revoked!.token_id], { env: store.env });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ name: 'revoked', revoked_at: expect.any(String) });
    };
    if (backend === 'postgres') {
      await revoke(); // the running gateway is told at once (NOTIFY), not after its cache expires
      const after = await http.get(`/v1/targets/${targetId}`, undefined, { token: tokens.revoked!.token });
      expect(after).toMatchObject({ status: 401, body: { error: { reason: 'invalid_token' } } });
    } else {
      await api.stop(); // the embedded store has one owner at a time
      await revoke();
      api = await startApi(TINY(store.env), ['--no-local-token']);
      http = new HttpClient(api.url, tokens.writer!.token);
      expect((await http.get(`/v1/targets/${targetId}`, undefined, { token: tokens.revoked!.token })).status).toBe(401);
    }
    await api.stop();
    const list = await runCli(['tokens', 'list', '--all'], { env: store.env });
    const listed = JSON.parse(list.stdout) as Record<string, unknown>[];
    expect(listed.map((t) => t.name).sort()).toEqual(['auditor', 'operator', 'reader', 'revoked', 'writer']);
    expect(list.stdout).not.toContain('pal_');
    expect(listed.find((t) => t.name === 'writer')!.last_used_at).toEqual(expect.any(String));
    const bad = await runCli(['tokens', 'create', '--scopes', 'read,admin'], { env: store.env });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('unknown: admin');
    const created = await createTokenCli(store.env, 'read,auditor', 'from the cli');
    expect(created.token).toMatch(/^pal_[A-Za-z0-9_-]{43}$/);
    expect(JSON.parse((await runCli(['tokens', 'list'], { env: store.env })).stdout)).toHaveLength(5);
  });

  it('serves without tokens only with --no-auth on a loopback host, and says so', async () => {
    const open = await startApi(store.env, ['--no-auth']);
    try {
      expect(open.stderr()).toContain('WARNING: authentication is OFF');
      expect((await new HttpClient(open.url).get(`/v1/targets/${targetId}`)).status).toBe(200);
    } finally {
      expect((await open.stop()).code).toBe(0);
    }
    await expect(startApi(store.env, ['--no-auth', '--host', '0.0.0.0'])).rejects.toThrow(/--no-auth is for local development/);
  });
});
