import { isolatedStore } from '../support/cli-process';
import { HttpClient } from '../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

/** Candidate routes, a token's owner policy, and an approval decided over HTTP while the apply waits. */
describe(`palimpsest api: candidates, token policies and approvals on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let api: ApiProcess;
  let http: HttpClient;
  let tokens: Record<string, { token: string }>;

  beforeAll(async () => {
    store = await isolatedStore();
    tokens = await seedTokens(
      store.env,
      { writer: 'read,write', operator: 'operator', reviewer: 'read,write', agent: 'read,write' },
      { reviewer: { mode: 'read_only' }, agent: { mode: 'allow_all', approve: true } },
    );
    api = await startApi({ ...store.env, APPROVAL_WAIT_MS: '30000' }, ['--no-local-token']);
    http = new HttpClient(api.url, tokens.writer!.token);
  });
  afterAll(async () => {
    await api?.stop();
    await store.dispose();
  });

  const target = async () => (await http.post('/v1/targets', { filename: 'c.md', content: 'alpha beta alpha\n' })).body.target_file_id as string;
  const proposal = (id: string) => ({
    base: [{ target_file_id: id, version: 0 }],
    operations: [{ kind: 'edit', target_file_id: id, match: 'alpha', replace: 'gamma', occurrence_index: 2 }],
  });

  it('proposes, inspects (ETag), checks, applies with If-Match + Idempotency-Key, and refuses a second apply', async () => {
    const id = await target();
    const plan = await http.post('/v1/plans', proposal(id));
    expect(plan).toMatchObject({ status: 200, body: { status: 'ok' } });
    const proposed = await http.post('/v1/candidates', proposal(id), { headers: { 'idempotency-key': 'propose-1' } });
    expect(proposed).toMatchObject({ status: 200, body: { status: 'ok', replayed: false, candidate: { version: 1, state: 'open' } } });
    const candidate = proposed.body.candidate.id as string;
    expect((await http.post('/v1/candidates', proposal(id), { headers: { 'idempotency-key': 'propose-1' } })).body.replayed).toBe(true);

    const inspected = await http.get(`/v1/candidates/${candidate}`, { include: 'semantic_diff,checks' });
    expect(inspected.status).toBe(200);
    const etag = inspected.headers.get('etag')!;
    expect(etag).toBe('"1"');
    expect((await http.post(`/v1/candidates/${candidate}/checks`, { checks: ['utf8'] })).body).toMatchObject({ status: 'ok', ok: true });
    const stale = await http.post(`/v1/candidates/${candidate}/apply`, {}, { headers: { 'if-match': '"2"', 'idempotency-key': 'apply-1' } });
    expect(stale).toMatchObject({ status: 409, body: { status: 'error', error: { code: 'precondition_failed', trace_id: expect.any(String) } } });
    const applied = await http.post(`/v1/candidates/${candidate}/apply`, {}, { headers: { 'if-match': etag, 'idempotency-key': 'apply-2' } });
    expect(applied).toMatchObject({ status: 200, body: { status: 'ok', receipt: { outcome: 'applied' } } });
    expect((await http.get(`/v1/targets/${id}`)).body).toMatchObject({ version: 1, current_content: 'alpha beta gamma\n' });
    const discard = await http.post(`/v1/candidates/${candidate}/discard`);
    expect(discard).toMatchObject({ status: 409, body: { error: { code: 'precondition_failed', reason: 'candidate_applied' } } });
    expect((await http.get('/v1/candidates/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await http.post('/v1/candidates', { base: [] })).body).toMatchObject({ status: 'error', error: { code: 'invalid_arguments' } });
  });

  it('applies a token\'s owner policy: read_only refuses writes with 403', async () => {
    const id = await target();
    const limited = http.withToken(tokens.reviewer!.token);
    expect((await limited.get(`/v1/targets/${id}`)).status).toBe(200);
    const edit = await limited.post(`/v1/targets/${id}/edits`, { intent: 'x', expected_target_version: 0, edits: [{ match: 'beta', replace: 'b' }] });
    expect(edit).toMatchObject({ status: 403, body: { code: 'operation_not_permitted', error: { code: 'permission_denied' } } });
    const propose = await limited.post('/v1/candidates', proposal(id), { headers: { 'idempotency-key': 'ro-1' } });
    expect(propose).toMatchObject({ status: 403, body: { status: 'error', error: { code: 'permission_denied', reason: 'policy' } } });
  });

  it('holds an apply under an approve policy until an operator approves it over HTTP', async () => {
    const agentHttp = http.withToken(tokens.agent!.token);
    const operator = agentHttp.withToken(tokens.operator!.token);
    const id = (await agentHttp.post('/v1/targets', { filename: 'c.md', content: 'alpha beta alpha\n' })).body.target_file_id;
    const candidate = (await agentHttp.post('/v1/candidates', proposal(id), { headers: { 'idempotency-key': 'held-1' } })).body.candidate.id;
    const waiting = agentHttp.post(`/v1/candidates/${candidate}/apply`, {}, { headers: { 'if-match': '"1"', 'idempotency-key': 'held-apply' } });

    let pending: any[] = [];
    for (let i = 0; i < 100 && pending.length === 0; i++) {
      pending = (await operator.get('/v1/approvals')).body.approvals;
      if (pending.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(pending).toHaveLength(1);
    expect((await agentHttp.get('/v1/approvals')).status).toBe(403);
    const granted = await operator.post(`/v1/approvals/${pending[0].approval_id}/approve`, { note: 'looks right' });
    expect(granted).toMatchObject({ status: 200, body: { status: 'ok', approval: { status: 'granted', decided_by: 'token:operator' } } });
    expect(await waiting).toMatchObject({ status: 200, body: { status: 'ok', receipt: { outcome: 'applied' } } });
    expect((await operator.post(`/v1/approvals/${pending[0].approval_id}/decline`, {})).status).toBe(409);
    expect((await operator.post('/v1/approvals/nope/approve', {})).status).toBe(404);
  });

  it('answers a declined apply at once, and a resend after the decision gets the same final answer', async () => {
    const agentHttp = http.withToken(tokens.agent!.token);
    const operator = agentHttp.withToken(tokens.operator!.token);
    const id = (await agentHttp.post('/v1/targets', { filename: 'd.md', content: 'alpha beta alpha\n' })).body.target_file_id;
    const candidate = (await agentHttp.post('/v1/candidates', proposal(id), { headers: { 'idempotency-key': 'declined-1' } })).body.candidate.id;
    const waiting = agentHttp.post(`/v1/candidates/${candidate}/apply`, {}, { headers: { 'if-match': '"1"', 'idempotency-key': 'declined-apply' } });
    let pending: any[] = [];
    for (let i = 0; i < 100 && pending.length === 0; i++) {
      pending = (await operator.get('/v1/approvals')).body.approvals.filter((a: any) => a.candidate === candidate);
      if (pending.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(pending).toHaveLength(1);
    const declined = await operator.post(`/v1/approvals/${pending[0].approval_id}/decline`, { note: 'not this one' });
    expect(declined).toMatchObject({ status: 200, body: { approval: { status: 'declined' } } });
    const answer = await waiting;
    expect(answer.body).toMatchObject({ status: 'error', error: { code: 'permission_denied', reason: 'approval_declined', retryable: 'none' } });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    for (const key of ['declined-apply', 'declined-apply-again']) {
      const resent = await agentHttp.post(`/v1/candidates/${candidate}/apply`, {}, { headers: { 'if-match': '"1"', 'idempotency-key': key } });
      expect({ status: resent.status, body: resent.body }).toMatchObject({ status: answer.status, body: { error: { reason: 'approval_declined' } } });
    }
    expect((await agentHttp.get(`/v1/targets/${id}`)).body).toMatchObject({ version: 0 });
  });
});
