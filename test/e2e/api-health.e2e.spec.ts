import pg from 'pg';
import { isolatedStore } from '../support/cli-process';
import { HttpClient, type HttpAnswer } from '../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../support/http-server';
import { startTcpProxy, type TcpProxy } from '@palimpsest/store/test-support/tcp-proxy';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

/** How long one answer may take while the database is gone: the health indicators time out within a second; a refused connection fails at once. */
const ANSWER_BOUND_MS = 2_000;
/** How long /health may take to notice the outage, and the recovery. */
const TRANSITION_BOUND_MS = 10_000;

/** Terminus's report: status, then each indicator under info (up) or error (down), and all of them under details (projections: the asynchronous consumers, apps/projector). */
const UP = {
  database: { status: 'up', backend, responseTime: expect.any(Number) },
  migrations: { status: 'up', pending: 0, responseTime: expect.any(Number) },
  projections: { status: 'up', degraded: false, lag_threshold_seconds: 30, consumers: expect.any(Array), lagging: [], responseTime: expect.any(Number) },
  executors: { status: 'up', connected: 0, executors: [] }, // connected executors (executor-link.e2e.spec.ts); up without any
};
const HEALTHY = { status: 'ok', info: UP, error: {}, details: UP };

/** Backend pids of the gateway's LISTEN connection (pg-db.ts names it palimpsest-listen), seen from PostgreSQL itself. */
async function listenerPids(databaseUrl: string): Promise<number[]> {
  const url = new URL(databaseUrl);
  const database = url.pathname.slice(1);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString(), application_name: 'palimpsest-test-admin' });
  await admin.connect();
  try {
    const { rows } = await admin.query(
      `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'palimpsest-listen' ORDER BY pid`,
      [database],
    );
    return rows.map((r) => r.pid as number);
  } finally {
    await admin.end();
  }
}

/**
 * Polls /health until it answers `want`: every answer in bounded time, nothing but `from` before it, and
 * the switch within TRANSITION_BOUND_MS.
 */
async function healthBecomes(http: HttpClient, from: number, want: number): Promise<HttpAnswer & { ms: number }> {
  const started = performance.now();
  for (;;) {
    const answer = await timed(() => http.get('/health', undefined, { token: null }));
    expect(answer.ms).toBeLessThan(ANSWER_BOUND_MS);
    if (answer.status === want) return answer;
    expect(answer.status).toBe(from);
    expect(performance.now() - started).toBeLessThan(TRANSITION_BOUND_MS);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The request, and how long its answer took; fails (instead of hanging the test) past `boundMs`. */
async function timed(request: () => Promise<HttpAnswer>, boundMs = ANSWER_BOUND_MS): Promise<HttpAnswer & { ms: number }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${boundMs} ms`)), boundMs);
  });
  try {
    const answer = await Promise.race([request(), bound]);
    return { ...answer, ms: performance.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * /health over real HTTP against a `palimpsest api` process. On PostgreSQL the gateway reaches the
 * database through a TCP proxy this test controls, so the database can be taken away (every connection
 * reset, new ones refused) and given back while the gateway keeps running.
 *
 * On PGlite the database lives inside the gateway process: there is no connection to cut, and killing
 * the process would take /health with it. The outage case needs a database server, so it runs only
 * with DATABASE_URL; on PGlite this file checks the healthy report.
 */
describe(`palimpsest api: /health on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let proxy: TcpProxy | undefined;
  let api: ApiProcess;
  let http: HttpClient;
  /** A token the gateway has never verified, so it is in no cache when the database goes away. */
  let unseenToken: string;

  beforeAll(async () => {
    store = await isolatedStore(); // a fresh PostgreSQL database, or a fresh PGlite data directory
    let env = store.env;
    let token: string | null = null; // /health and /docs are public: PGlite needs no token
    if (backend === 'postgres') {
      const tokens = await seedTokens(store.env, { all: 'read,write,operator,auditor', unseen: 'read' }); // migrates the database first
      token = tokens.all!.token;
      unseenToken = tokens.unseen!.token;
      const direct = new URL(store.env.DATABASE_URL!);
      proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
      const viaProxy = new URL(direct);
      viaProxy.hostname = proxy.host;
      viaProxy.port = String(proxy.port);
      env = { ...store.env, DATABASE_URL: viaProxy.toString() };
    }
    api = await startApi(env, ['--no-local-token']); // it migrates its store on start (PGlite: the new data directory)
    http = new HttpClient(api.url, token);
  });

  afterAll(async () => {
    await proxy?.restore(); // a failed run may leave it cut: let the gateway close its pool cleanly
    const stopped = await api?.stop();
    await proxy?.close();
    await store?.dispose();
    expect(`exit ${stopped?.code}\n${stopped?.stderr}`).toMatch(/^exit 0\n/); // with the gateway's stderr when it is not
  });

  it('answers 200 with the terminus report: database and migrations up, as the OpenAPI document says', async () => {
    const doc = (await http.get('/docs/openapi.json', undefined, { token: null })).body;
    expect(Object.keys(doc.paths['/health'].get.responses).sort()).toEqual(['200', '503']);
    const health = await timed(() => http.get('/health', undefined, { token: null }));
    expect(health.status).toBe(200);
    expect(health.body).toEqual(HEALTHY);
  });

  if (backend === 'postgres') {
    it('turns 503 while the database is unreachable, refuses a submit with 503 meanwhile, and recovers with nothing half-written', async () => {
      const doc = (await http.get('/docs/openapi.json', undefined, { token: null })).body;
      const editsDocumented = doc.paths['/v1/targets/{id}/edits'].post.responses as Record<string, { content?: Record<string, { schema: unknown }> }>;

      const created = await http.post('/v1/targets', { filename: 'doc.md', content: 'alpha beta\n' });
      expect(created.status).toBe(201);
      const id = created.body.target_file_id as string;
      const first = await http.post(`/v1/targets/${id}/edits`, { intent: 'Before', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'gamma' }] });
      expect(first.body).toMatchObject({ status: 'accepted', version: 1 });
      const replayBefore = (await http.post(`/v1/targets/${id}/replay`)).body;
      expect(replayBefore).toMatchObject({ status: 'success', materialized_state_matches: true, accepted_transactions_replayed: 1 });
      expect((await timed(() => http.get('/health', undefined, { token: null }))).body).toEqual(HEALTHY);
      expect(proxy!.connections).toBeGreaterThan(0); // the gateway really goes through the proxy
      const listenerBefore = await listenerPids(store.env.DATABASE_URL!);
      expect(listenerBefore).toHaveLength(1);

      await proxy!.cut();

      // /health notices: 503, each answer in bounded time, the failing checks named under `error`.
      const down = await healthBecomes(http, 200, 503);
      expect(down.body).toMatchObject({
        status: 'error',
        error: { database: { status: 'down', message: expect.any(String) } },
        details: { database: { status: 'down' } },
      });
      expect(down.body.info?.database).toBeUndefined();
      const { executors, ...stored } = down.body.details as Record<string, { status: string }>;
      expect(Object.values(stored).every((c) => c.status === 'down')).toBe(true);
      expect(executors).toEqual(UP.executors); // presence is held in memory: the database takes nothing of it down

      // A submit while the database is gone: 503 unavailable (documented for the route), retryable, promptly.
      const key = { 'idempotency-key': 'during-outage' };
      const proposal = { intent: 'During', expected_target_version: 1, edits: [{ match: 'beta', replace: 'delta' }] };
      const refused = await timed(() => http.post(`/v1/targets/${id}/edits`, proposal, { headers: key }));
      expect(refused.status).toBe(503);
      expect(editsDocumented['503']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(refused.body.error).toMatchObject({ code: 'unavailable', reason: 'database_unavailable', retryable: 'same_request' });
      // A token the gateway cannot look up is not "unknown": the answer is 503, not 401.
      const unverifiable = await timed(() => http.get(`/v1/targets/${id}`, undefined, { token: unseenToken }));
      expect(unverifiable.status).toBe(503);
      expect(unverifiable.body.error).toMatchObject({ code: 'unavailable', reason: 'database_unavailable' });
      // Still down for as long as the database is.
      expect((await timed(() => http.get('/health', undefined, { token: null }))).status).toBe(503);

      await proxy!.restore();

      const up = await healthBecomes(http, 503, 200);
      expect(up.body).toEqual(HEALTHY);

      // The same request, resent as the 503 asked: applied now, and for the first time (nothing of it was kept).
      const resent = await timed(() => http.post(`/v1/targets/${id}/edits`, proposal, { headers: key }));
      expect(resent.status).toBe(200);
      expect(resent.body).toMatchObject({ status: 'accepted', version: 2, deduplicated: false, client_request_id: 'during-outage' });
      expect((await http.get(`/v1/targets/${id}`, undefined, { token: unseenToken })).body).toMatchObject({
        status: 'ok',
        version: 2,
        current_content: 'gamma delta\n',
      });

      // Nothing half-written: the attempt log holds the two accepted submissions only, and replaying the
      // events reproduces the materialized target.
      const log = (await http.get(`/v1/targets/${id}/attempts`)).body;
      expect(log.entries.map((e: Record<string, unknown>) => [e.status, e.before_version, e.after_version, e.client_request_id])).toEqual([
        ['accepted', 1, 2, 'during-outage'],
        ['accepted', 0, 1, null],
      ]);
      const replay = (await http.post(`/v1/targets/${id}/replay`)).body;
      expect(replay).toMatchObject({
        status: 'success',
        materialized_state_matches: true,
        accepted_transactions_replayed: 2,
        reconstructed_version: 2,
        current_version: 2,
        current_hash: resent.body.after_hash,
      });
      expect(replay.reconstructed_hash).toBe(replay.current_hash);

      // The notification listener (token revocations, event wake-ups) reconnects too, on its own backoff
      // (250 ms doubling, at most 10 s).
      const listenerStarted = performance.now();
      let listenerAfter = await listenerPids(store.env.DATABASE_URL!);
      while (listenerAfter.length !== 1 || listenerAfter[0] === listenerBefore[0]) {
        expect(performance.now() - listenerStarted).toBeLessThan(15_000);
        await new Promise((r) => setTimeout(r, 100));
        listenerAfter = await listenerPids(store.env.DATABASE_URL!);
      }
    });

    it('stops cleanly (exit 0) when told to while its listener is still reconnecting after an outage', async () => {
      await proxy!.cut();
      await healthBecomes(http, 200, 503);
      await proxy!.restore();
      await healthBecomes(http, 503, 200);
      // At once: the LISTEN connection is still on its reconnect backoff, so its UNLISTEN cannot be sent.
      const stopped = await api.stop();
      expect(`exit ${stopped.code}\n${stopped.stderr}`).toMatch(/^exit 0\n/);
    });
  }
});
