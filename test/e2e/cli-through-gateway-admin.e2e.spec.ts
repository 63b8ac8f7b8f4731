import { GATEWAY_CREDENTIAL_NAME } from '@palimpsest/api/lifecycle/gateway-address';
import { isolatedStore } from '../support/cli-process';
import { HttpClient } from '../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const MISSING = '00000000-0000-4000-8000-000000000000';

/**
 * The /v1/admin routes the CLI uses through a gateway: what each answers (the value the command prints
 * locally, no HTTP envelope added), and who may call them — an unrestricted token (every scope, no owner
 * policy) and nobody narrower, whatever scopes it holds.
 */
describe(`the gateway's /v1/admin routes (${backend})`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let api: ApiProcess;
  let tokens: Record<string, { token: string; token_id: string }>;
  let admin: HttpClient;

  beforeAll(async () => {
    store = await isolatedStore();
    tokens = await seedTokens(
      store.env,
      { admin: 'read,write,operator,auditor', operator: 'operator', reader: 'read', narrowed: 'read,write,operator,auditor' },
      { narrowed: { mode: 'read_only' } },
    );
    api = await startApi(store.env, ['--no-local-token']);
    admin = new HttpClient(api.url, tokens.admin!.token);
  });
  afterAll(async () => {
    expect((await api.stop()).code).toBe(0);
    await store.dispose();
  });

  it('refuse no token (401), a token without the operator scope (403 missing_scope) and any narrower token (403 admin_token_required)', async () => {
    const routes: [string, string][] = [
      ['POST', '/v1/admin/dispatch'],
      ['GET', '/v1/admin/tokens'],
      ['POST', '/v1/admin/tokens'],
      ['POST', `/v1/admin/tokens/${MISSING}/revoke`],
      ['POST', `/v1/admin/approvals/${MISSING}/decision`],
      ['POST', '/v1/admin/migrate'],
      ['GET', '/v1/admin/log/partitions'],
      ['POST', '/v1/admin/log/roll'],
      ['POST', '/v1/admin/log/archive'],
    ];
    for (const [method, path] of routes) {
      const as = (token: string | null) => admin.request(method, path, { token, ...(method === 'POST' ? { body: {} } : {}) });
      expect({ path, status: (await as(null)).status }).toEqual({ path, status: 401 });
      expect({ path, body: (await as(tokens.reader!.token)).body.error.reason }).toEqual({ path, body: 'missing_scope' });
      for (const narrower of ['operator', 'narrowed']) {
        const refused = await as(tokens[narrower]!.token);
        expect({ path, narrower, status: refused.status, reason: refused.body.error.reason }).toEqual({ path, narrower, status: 403, reason: 'admin_token_required' });
      }
    }
  });

  it('dispatch answers the outcome as dispatch() returns it, under a profile the gateway knows', async () => {
    const full = await admin.post('/v1/admin/dispatch', { operation: 'palimpsest_capabilities' });
    expect(full).toMatchObject({ status: 200, body: { status: 'ok', profile: 'full', policy: null } });
    const readOnly = await admin.post('/v1/admin/dispatch', {
      operation: 'palimpsest_initialize_target',
      args: { filename: 'a.md', content: 'x' },
      read_only: true,
    });
    expect(readOnly.body).toEqual({
      status: 'invalid_argument',
      code: 'operation_not_permitted',
      answer: 'FORBIDDEN',
      tool: 'palimpsest_initialize_target',
      failure_detail: 'palimpsest_initialize_target writes; this session runs the read-only profile. This is an answer: do not route around it.',
      retryable: 'none',
    });
    const profiled = await admin.post('/v1/admin/dispatch', { operation: 'palimpsest_capabilities', read_only: true, profile: 'read-only' });
    expect(profiled.body).toMatchObject({ status: 'ok', profile: 'read-only', policy: { name: 'read-only', mode: 'read_only' } });
    expect((await admin.post('/v1/admin/dispatch', { operation: 'palimpsest_nope' })).body).toEqual({
      status: 'invalid_argument',
      code: 'unknown_operation',
      failure_detail: 'No operation named palimpsest_nope.',
      retryable: 'none',
    });
    const unknown = await admin.post('/v1/admin/dispatch', { operation: 'palimpsest_capabilities', profile: 'everything' });
    expect(unknown).toMatchObject({ status: 400, body: { code: 'unknown_profile', argument: 'profile' } });
    const invented = await admin.post('/v1/admin/dispatch', { operation: 'palimpsest_capabilities', policy: { mode: 'allow_all', shell: true } });
    expect(invented.status).toBe(400); // a policy cannot be sent, only a profile named
    expect((await admin.post('/v1/admin/dispatch', { args: {} })).status).toBe(400); // no operation
  });

  it('tokens: create answers the secret once, the token works until revoked, bad scopes and policies are 400', async () => {
    const created = await admin.post('/v1/admin/tokens', { name: 'made over http', scopes: ['read'] });
    expect(created).toMatchObject({ status: 201, body: { status: 'ok', token: expect.stringMatching(/^pal_/), record: { name: 'made over http', scopes: ['read'], revoked_at: null } } });
    const { token, record } = created.body;
    expect((await admin.get('/v1/capabilities', undefined, { token })).status).toBe(200);
    const listed = (await admin.get('/v1/admin/tokens')).body.tokens as { token_id: string }[];
    expect(listed.map((t) => t.token_id)).toContain(record.token_id);
    expect(JSON.stringify(listed)).not.toContain('pal_');
    const revoked = await admin.post(`/v1/admin/tokens/${record.token_id}/revoke`);
    expect(revoked).toMatchObject({ status: 200, body: { status: 'ok', token: { token_id: record.token_id, revoked_at: expect.any(String) } } });
    expect((await admin.post(`/v1/admin/tokens/${record.token_id}/revoke`)).status).toBe(404);
    expect(((await admin.get('/v1/admin/tokens', { all: true })).body.tokens as { token_id: string }[]).map((t) => t.token_id)).toContain(record.token_id);
    expect(((await admin.get('/v1/admin/tokens')).body.tokens as { token_id: string }[]).map((t) => t.token_id)).not.toContain(record.token_id);
    expect((await admin.get('/v1/capabilities', undefined, { token })).status).toBe(401); // forgotten at once (NOTIFY), not after the cache expires
    expect((await admin.post('/v1/admin/tokens', { name: 'x', scopes: ['read', 'admin'] })).body).toMatchObject({ code: 'invalid_scopes' });
    expect((await admin.post('/v1/admin/tokens', { name: 'x', scopes: ['read'], policy: { mode: 'nope' } })).body).toMatchObject({ code: 'invalid_policy' });
    expect((await admin.post('/v1/admin/tokens', { name: GATEWAY_CREDENTIAL_NAME, scopes: ['read'] })).body).toMatchObject({ code: 'reserved_name' });
  });

  it('migrate applies nothing on a gateway that migrated at start; an unknown approval is the answer the CLI prints', async () => {
    expect(await admin.post('/v1/admin/migrate')).toMatchObject({ status: 200, body: { status: 'ok', applied: [] } });
    const decided = await admin.post(`/v1/admin/approvals/${MISSING}/decision`, { decision: 'grant', decided_by: 'cli:e2e' });
    expect(decided.status).toBe(404);
    expect(decided.body).toEqual({
      status: 'error',
      error: expect.objectContaining({ code: 'not_found', reason: 'approval_unknown' }),
    });
    expect(decided.body.error.trace_id).toBeUndefined();
    expect((await admin.post(`/v1/admin/approvals/${MISSING}/decision`, { decision: 'maybe', decided_by: 'x' })).status).toBe(400);
  });

  it('log: lists the partitions, rolls and archives while the gateway runs; a bound that is neither a position nor a time is 400', async () => {
    const before = (await admin.get('/v1/admin/log/partitions')).body;
    expect(before).toMatchObject({ status: 'ok', currentEpoch: 0, attached: [{ epoch: 0, current: true }], archived: [] });
    const refused = await admin.post('/v1/admin/log/archive', { before: 'yesterday' });
    expect(refused).toMatchObject({ status: 400, body: { code: 'invalid_before', argument: 'before', failure_detail: expect.stringMatching(/neither a global position \(1 or more\) nor an ISO 8601 time/) } });
    expect((await admin.post('/v1/admin/log/roll', { lock_timeout_ms: 0 })).status).toBe(400);
    expect(await admin.post('/v1/admin/log/archive', { before: '1000000' })).toMatchObject({ status: 200, body: { status: 'ok', archived: [] } }); // epoch 0 takes the appends
    expect(await admin.post('/v1/admin/log/roll', {})).toMatchObject({ status: 200, body: { status: 'ok', current_epoch: 1 } });
    const archived = (await admin.post('/v1/admin/log/archive', { before: '1000000' })).body;
    expect(archived).toMatchObject({ status: 'ok', archived: [{ epoch: 0, table: 'palimpsest_archive.events_e0', events: before.attached[0].events }] });
    expect((await admin.get('/v1/admin/log/partitions')).body).toMatchObject({ currentEpoch: 1, attached: [{ epoch: 1, current: true }], archived: [{ epoch: 0 }] });
    expect((await admin.post('/v1/admin/dispatch', { operation: 'palimpsest_capabilities' })).status).toBe(200); // the service went on
  });
});
