import { isolatedStore } from '../support/cli-process';
import { HttpClient } from '../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const ALLOWED = 'https://app.example.com';
const ALSO_ALLOWED = 'http://localhost:5173';
const OTHER = 'https://evil.example.net';

/** CORS: off by default (see api-routes), and for the PALIMPSEST_CORS_ORIGINS allow-list only when set. */
describe(`palimpsest api: CORS for an allow-list of origins on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let api: ApiProcess;
  let http: HttpClient;

  const preflight = (origin: string, method = 'POST', headers = 'authorization,content-type,if-match') =>
    fetch(new URL('/v1/targets', api.url), {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
    });

  beforeAll(async () => {
    store = await isolatedStore();
    const { all } = await seedTokens(store.env, { all: 'read,write' });
    api = await startApi({ ...store.env, PALIMPSEST_CORS_ORIGINS: ` ${ALLOWED}, ${ALSO_ALLOWED} ` }, ['--no-local-token']);
    http = new HttpClient(api.url, all!.token);
  });
  afterAll(async () => {
    expect((await api?.stop())?.code).toBe(0);
    await store.dispose();
  });

  it('answers a preflight from an allowed origin with that origin, the methods and the headers', async () => {
    for (const origin of [ALLOWED, ALSO_ALLOWED]) {
      const res = await preflight(origin);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('access-control-allow-methods')?.split(/, */)).toEqual(expect.arrayContaining(['GET', 'POST']));
      const allowed = res.headers.get('access-control-allow-headers')?.toLowerCase().split(/, */);
      expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'if-match', 'idempotency-key']));
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('vary')).toMatch(/origin/i);
    }
  });

  it('gives a disallowed origin no Access-Control-Allow-Origin, on the preflight or the request', async () => {
    const res = await preflight(OTHER);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const read = await http.get('/v1/capabilities', undefined, { headers: { origin: OTHER } });
    expect(read.status).toBe(200); // CORS only tells browsers what a page may read; the token still decides
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets an allowed page read answers and the headers it needs: ETag, Location, X-Request-Id', async () => {
    const created = await http.post('/v1/targets', { filename: 'c.md', content: 'alpha\n' }, { headers: { origin: ALLOWED } });
    expect(created.status).toBe(201);
    expect(created.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    const exposed = created.headers.get('access-control-expose-headers')?.toLowerCase().split(/, */);
    expect(exposed).toEqual(expect.arrayContaining(['etag', 'location', 'retry-after', 'x-request-id']));
    const refused = await http.get('/v1/capabilities', undefined, { token: null, headers: { origin: ALLOWED } });
    expect(refused.status).toBe(401); // a refusal is readable too, so the page can show why
    expect(refused.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });
});
