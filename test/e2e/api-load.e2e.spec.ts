import { isolatedStore } from '../support/cli-process';
import { HttpClient, type HttpAnswer } from '../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const CLIENTS = 50;
const REQUESTS = 2000;
const TARGETS = 10;
const BODY_LIMIT = 64 * 1024;

interface Sent {
  method: 'GET' | 'POST';
  /** The route pattern as the OpenAPI document spells it. */
  route: string;
  answer: HttpAnswer;
}

/** 50 clients, 2,000 mixed requests (valid, stale, malformed, oversized, unauthenticated). */
describe(`palimpsest api under mixed concurrent load on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let api: ApiProcess;
  let http: HttpClient;
  let documented: (method: string, route: string) => number[];

  beforeAll(async () => {
    store = await isolatedStore();
    const { all } = await seedTokens(store.env, { all: 'read,write,auditor,operator' });
    api = await startApi({ ...store.env, PALIMPSEST_API_BODY_LIMIT: String(BODY_LIMIT) }, ['--no-local-token']);
    http = new HttpClient(api.url, all!.token);
    const doc = (await http.get('/docs/openapi.json')).body;
    documented = (method, route) => Object.keys(doc.paths[route][method.toLowerCase()].responses).map(Number);
  });
  afterAll(async () => {
    expect((await api?.stop())?.code).toBe(0);
    await store.dispose();
  });

  it('answers every request with a documented code, never 5xx, and replays equal afterwards', async () => {
    const ids: string[] = [];
    for (let t = 0; t < TARGETS; t++) ids.push((await http.post('/v1/targets', { filename: `l${t}.md`, content: '<0>\n' })).body.target_file_id);
    const known = new Map(ids.map((id) => [id, 0]));
    const accepted = new Map(ids.map((id) => [id, 0]));
    const sent: Sent[] = [];

    const submit = (id: string, version: number, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
      http.post(`/v1/targets/${id}/edits`, { intent: 'load', edits: [{ match: `<${version}>`, replace: `<${version + 1}>` }], ...extra }, { headers: { 'if-match': `"${version}"`, ...headers } });

    async function one(n: number): Promise<Sent> {
      const id = ids[n % TARGETS]!;
      const v = known.get(id)!;
      const edits = { method: 'POST' as const, route: '/v1/targets/{id}/edits' };
      switch (n % 10) {
        case 0: case 1: case 2: case 3:
          return { ...edits, answer: await submit(id, v) };
        case 4: // stale: a version this client knows is past
          return { ...edits, answer: await submit(id, v > 0 ? v - 1 : v + 1000) };
        case 5: {
          const reads = ['', '/text', '/lines', '/occurrences?text=%3C'];
          const suffix = reads[(n / 10) % reads.length | 0]!;
          const answer = await http.get(`/v1/targets/${id}${suffix}`);
          return { method: 'GET', route: `/v1/targets/{id}${suffix.split('?')[0]}`, answer };
        }
        case 6: {
          const malformed = [
            () => http.request('POST', `/v1/targets/${id}/edits`, { raw: '{"intent": "x", "edits": [', headers: { 'content-type': 'application/json' } }),
            () => http.post(`/v1/targets/${id}/edits`, { intent: 'x', expected_target_version: v, edits: 'not a list' }),
            () => http.post('/v1/targets/not-a-uuid/edits', { intent: 'x', expected_target_version: 0, edits: [] }),
            () => http.post(`/v1/targets/${id}/edits`, { intent: 'x', bogus: true, edits: [] }),
          ];
          return { ...edits, answer: await malformed[(n / 10) % malformed.length | 0]!() };
        }
        case 7:
          return { ...edits, answer: await submit(id, v, { rationale_padding: 'x'.repeat(BODY_LIMIT + 1024) }) };
        case 8: {
          const key = { 'idempotency-key': `load-${n % 40}` }; // reused keys: recoveries and conflicts
          return { ...edits, answer: await submit(id, v, {}, key) };
        }
        default:
          return { ...edits, answer: await http.post(`/v1/targets/${id}/edits`, { intent: 'x' }, { token: null }) };
      }
    }

    let next = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        for (let n = next++; n < REQUESTS; n = next++) {
          const s = await one(n);
          sent.push(s);
          const body = s.answer.body ?? {};
          if (body.status === 'accepted' && body.deduplicated === false) accepted.set(body.target_file_id, accepted.get(body.target_file_id)! + 1);
          const now = body.current_version;
          if (typeof now === 'number' && body.target_file_id && now > known.get(body.target_file_id)!) known.set(body.target_file_id, now);
        }
      }),
    );

    expect(sent).toHaveLength(REQUESTS);
    const byStatus: Record<number, number> = {};
    for (const s of sent) byStatus[s.answer.status] = (byStatus[s.answer.status] ?? 0) + 1;
    const undocumented = sent.filter((s) => !documented(s.method, s.route).includes(s.answer.status));
    expect(undocumented.map((s) => `${s.method} ${s.route} ${s.answer.status}`)).toEqual([]);
    expect(Object.keys(byStatus).filter((code) => Number(code) >= 500)).toEqual([]);
    for (const code of [200, 400, 401, 409, 413, 422]) expect({ code, seen: (byStatus[code] ?? 0) > 0 }).toEqual({ code, seen: true });
    expect(sent.filter((s) => s.answer.status >= 400).every((s) => typeof s.answer.body?.error?.code === 'string')).toBe(true);

    for (const id of ids) {
      const target = (await http.get(`/v1/targets/${id}`)).body;
      expect({ id, version: target.version }).toEqual({ id, version: accepted.get(id) });
      expect((await http.post(`/v1/targets/${id}/replay`)).body).toMatchObject({ status: 'success', materialized_state_matches: true });
    }
    expect((await http.post('/v1/replay', { limit: 100 })).body).toMatchObject({ status: 'success', checked: TARGETS });
    expect((await http.post('/v1/projections/rebuild')).body).toMatchObject({ status: 'ok', equal: true });
  });
});
