import { isolatedStore } from '../support/cli-process';
import { HttpClient } from '../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

/** An apply nobody decides in time is answered APPROVAL_TIMEOUT; resending the same request picks up the later decision. */
describe(`palimpsest api: approval timeout and resend on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let api: ApiProcess;
  let agent: HttpClient;
  let operator: HttpClient;

  beforeAll(async () => {
    store = await isolatedStore();
    const tokens = await seedTokens(store.env, { agent: 'read,write', operator: 'operator' }, { agent: { mode: 'allow_all', approve: true } });
    api = await startApi({ ...store.env, APPROVAL_WAIT_MS: '300', PALIMPSEST_APPROVAL_POLL_MS: '50' }, ['--no-local-token']);
    agent = new HttpClient(api.url, tokens.agent!.token);
    operator = agent.withToken(tokens.operator!.token);
  });
  afterAll(async () => {
    await api?.stop();
    await store.dispose();
  });

  it('times out, then the same Idempotency-Key applies once an operator has approved', async () => {
    const id = (await agent.post('/v1/targets', { filename: 't.md', content: 'alpha beta alpha\n' })).body.target_file_id;
    const proposal = {
      base: [{ target_file_id: id, version: 0 }],
      operations: [{ kind: 'edit', target_file_id: id, match: 'beta', replace: 'BETA' }],
    };
    const candidate = (await agent.post('/v1/candidates', proposal, { headers: { 'idempotency-key': 'to-1' } })).body.candidate.id;
    const apply = () => agent.post(`/v1/candidates/${candidate}/apply`, {}, { headers: { 'if-match': '"1"', 'idempotency-key': 'to-apply' } });

    const timedOut = await apply();
    expect(timedOut.status).toBeGreaterThanOrEqual(400);
    expect(timedOut.body.error).toMatchObject({ code: 'permission_denied', reason: 'approval_timeout', retryable: 'same_request' });
    expect((await agent.get(`/v1/targets/${id}`)).body).toMatchObject({ version: 0 });

    const pending = (await operator.get('/v1/approvals')).body.approvals.filter((a: any) => a.candidate === candidate);
    expect(pending).toHaveLength(1);
    expect((await operator.post(`/v1/approvals/${pending[0].approval_id}/approve`, { note: 'ok' })).status).toBe(200);

    const resent = await apply();
    expect(resent).toMatchObject({ status: 200, body: { status: 'ok', receipt: { outcome: 'applied', request_id: 'to-apply' } } });
    expect((await agent.get(`/v1/targets/${id}`)).body).toMatchObject({ version: 1, current_content: 'alpha BETA alpha\n' });
  });
});
