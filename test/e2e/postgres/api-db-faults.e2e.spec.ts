import pg from 'pg';
import { startTcpProxy, type TcpProxy } from '@palimpsest/store/test-support/tcp-proxy';
import { isolatedStore, runCli } from '../../support/cli-process';
import { HttpClient, type HttpAnswer } from '../../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../../support/http-server';

/**
 * The gateway while its database misbehaves under write load: sessions terminated by the server, every
 * connection reset, the network path gone silent. It must stay up, answer each request (503 with
 * Retry-After while the database is away, never a reset connection), serve again without a restart,
 * and lose or double nothing: every keyed write, resent until it is answered, is applied exactly once.
 * PostgreSQL only (PGlite has no connection to lose); the gateway reaches it through a TCP relay.
 */
const OWN_TARGETS = 6;
const SHARED_WRITERS = 3;
/** Each writer goes on until the faults are over and it has written at least this many. */
const MIN_WRITES_PER_CLIENT = 20;
/** Short bounds, so a silent database costs the test seconds, not the defaults' 15. */
const BOUNDS = {
  PALIMPSEST_PG_CONNECT_TIMEOUT_MS: '800',
  PALIMPSEST_PG_STATEMENT_TIMEOUT_MS: '1000',
  PALIMPSEST_PG_QUERY_TIMEOUT_MS: '1500',
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function admin<T = Record<string, unknown>>(databaseUrl: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString(), application_name: 'palimpsest-test-admin' });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** pg_terminate_backend on every session the gateway holds (its pool and its listener). */
function terminateGatewaySessions(databaseUrl: string) {
  const database = new URL(databaseUrl).pathname.slice(1);
  return admin(databaseUrl, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name LIKE 'palimpsest%' AND application_name <> 'palimpsest-test-admin'`, [database]);
}

interface Seen {
  statuses: number[];
  resets: string[];
  bad503: unknown[];
  unexpected: string[];
}

/**
 * One logical write (a marker line), sent until it is accepted: a 503 is resent as is, with the same key
 * (it may have committed: the resend finds out); a stale guard (another writer moved the target) is a
 * recorded refusal of that key, so the next attempt carries a new key and the current version.
 */
async function writeOnce(http: HttpClient, id: string, marker: string, version: { known: number }, seen: Seen): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (let attempt = 0; ; attempt++) {
    const key = `${marker}.${attempt}`;
    const body = { intent: `write ${marker}`, expected_target_version: version.known, edits: [{ match: '<end>', replace: `[${marker}]\n<end>` }] };
    for (;;) {
      let answer: HttpAnswer;
      try {
        answer = await http.post(`/v1/targets/${id}/edits`, body, { headers: { 'idempotency-key': key } });
      } catch (error) {
        seen.resets.push(`${key}: ${(error as Error).message} ${String((error as { cause?: unknown }).cause)}`);
        answer = { status: 0, headers: new Headers(), body: undefined, text: '' };
      }
      seen.statuses.push(answer.status);
      if (typeof answer.body?.current_version === 'number') version.known = Math.max(version.known, answer.body.current_version);
      if (answer.status === 200 && answer.body?.status === 'accepted') return;
      if (answer.status === 409) break; // stale: a new attempt, a new key
      if (answer.status === 503) {
        const e = answer.body?.error;
        const retryAfter = answer.headers.get('retry-after');
        if (!retryAfter || !/^\d+$/.test(retryAfter) || e?.retryable !== 'same_request' || !['unavailable', 'resource_limit'].includes(e?.code)) {
          seen.bad503.push({ retryAfter, body: answer.body });
        }
      } else if (answer.status !== 0) {
        seen.unexpected.push(`${key}: ${answer.status} ${answer.text.slice(0, 300)}`);
      }
      if (Date.now() > deadline) throw new Error(`${marker} was not accepted within 60 s; last answer ${answer.status} ${answer.text}`);
      await sleep(answer.status === 503 ? 100 : 50);
    }
  }
}

describe('palimpsest api on PostgreSQL: database faults under write load', () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let proxy: TcpProxy;
  let api: ApiProcess;
  let http: HttpClient;
  let tokens: Record<string, { token: string; token_id: string }>;
  let exitedEarly: { code: number | null; stderr: string } | null = null;

  beforeAll(async () => {
    store = await isolatedStore();
    tokens = await seedTokens(store.env, { all: 'read,write,operator,auditor', doomed: 'read' });
    const direct = new URL(store.env.DATABASE_URL!);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(direct);
    viaProxy.hostname = proxy.host;
    viaProxy.port = String(proxy.port);
    api = await startApi({ ...store.env, ...BOUNDS, DATABASE_URL: viaProxy.toString() }, ['--no-local-token']);
    void api.exited.then((exit) => {
      exitedEarly = exit;
    });
    http = new HttpClient(api.url, tokens.all!.token);
  });

  afterAll(async () => {
    proxy?.resume();
    await proxy?.restore();
    const stopped = await api?.stop();
    await proxy?.close();
    await store?.dispose();
    expect(`exit ${stopped?.code}\n${stopped?.stderr}`).toMatch(/^exit 0\n/);
  });

  it('stays up through terminated sessions, reset connections and a silent network; every write lands exactly once', async () => {
    const own: string[] = [];
    for (let t = 0; t < OWN_TARGETS; t++) own.push((await http.post('/v1/targets', { filename: `own${t}.md`, content: '<end>\n' })).body.target_file_id);
    const shared = (await http.post('/v1/targets', { filename: 'shared.md', content: '<end>\n' })).body.target_file_id as string;
    const writers = [...own.map((id, c) => ({ id, name: `own${c}` })), ...Array.from({ length: SHARED_WRITERS }, (_, c) => ({ id: shared, name: `shared${c}` }))];
    const seen: Seen = { statuses: [], resets: [], bad503: [], unexpected: [] };
    const versions = new Map<string, { known: number }>([...own, shared].map((id) => [id, { known: 0 }]));
    const health: { status: number; ms: number; code?: string; traceId?: string }[] = [];

    let faulting = true;
    const written = new Map<string, string[]>(); // target → markers accepted
    const load = Promise.all(
      writers.map(async ({ id, name }) => {
        for (let n = 0; faulting || n < MIN_WRITES_PER_CLIENT; n++) {
          await writeOnce(http, id, `${name}-${n}`, versions.get(id)!, seen);
          written.set(id, [...(written.get(id) ?? []), `${name}-${n}`]);
          await sleep(20);
        }
      }),
    );
    const during = { terminated: 0, cut: 0, stalled: 0 };
    const unavailableSoFar = () => seen.statuses.filter((s) => s === 503).length;

    const faults = (async () => {
      await sleep(500);
      let mark = unavailableSoFar();
      for (let i = 0; i < 3; i++) {
        await terminateGatewaySessions(store.env.DATABASE_URL!);
        await sleep(400);
      }
      during.terminated = unavailableSoFar() - mark;
      mark = unavailableSoFar();
      await proxy.cut(); // every connection reset, new ones refused
      await sleep(1_000);
      during.cut = unavailableSoFar() - mark;
      await proxy.restore();
      await sleep(800);
      mark = unavailableSoFar();
      proxy.stall(); // a blackhole: nothing answers, nothing is refused
      const stalledUntil = Date.now() + 2_500;
      while (Date.now() < stalledUntil) {
        const started = performance.now();
        const r = await http.get('/health', undefined, { token: null });
        health.push({ status: r.status, ms: performance.now() - started, code: r.body?.error?.code, traceId: r.body?.error?.trace_id });
      }
      await sleep(1_000); // the statements in flight outlive their query timeout
      during.stalled = unavailableSoFar() - mark;
      proxy.resume();
      await proxy.cut(); // what the client gave up on is gone; the relay starts afresh
      await proxy.restore();
    })().finally(() => {
      faulting = false;
    });

    await faults;
    await load;

    expect(exitedEarly).toBeNull(); // the process survived every fault
    expect(seen.resets).toEqual([]); // every request was answered, none reset
    expect(seen.bad503).toEqual([]);
    expect(seen.unexpected).toEqual([]);
    expect(seen.statuses.filter((s) => s !== 200 && s !== 409 && s !== 503)).toEqual([]);
    // Each fault was felt by the writers (and answered 503, then recovered from).
    expect(during).toEqual({ terminated: expect.any(Number), cut: expect.any(Number), stalled: expect.any(Number) });
    expect(Object.values(during).every((n) => n > 0)).toBe(true);
    // /health while the network was silent: 503, each within about a second.
    expect(health.length).toBeGreaterThan(0);
    expect(health.filter((h) => h.status !== 503 || h.ms > 1_500 || h.code !== 'unavailable' || !h.traceId)).toEqual([]);

    expect((await http.get('/health', undefined, { token: null })).status).toBe(200);
    for (const [id, keys] of written) {
      const target = (await http.get(`/v1/targets/${id}`)).body;
      const text = target.current_content as string;
      for (const key of keys) expect({ key, times: text.split(`[${key}]`).length - 1 }).toEqual({ key, times: 1 });
      expect(target.version).toBe(keys.length); // one version per write: nothing applied twice, nothing lost
      const versions: number[] = [];
      for (let before: number | null = null; ; ) {
        const page: { entries: unknown[]; has_more: boolean; next_sequence: number } = (await http.get(`/v1/targets/${id}/attempts`, { limit: 200, status: 'accepted', ...(before === null ? {} : { before_sequence: before }) })).body;
        versions.push(...(page.entries as { after_version: number }[]).map((e) => e.after_version));
        if (!page.has_more) break;
        before = page.next_sequence;
      }
      versions.sort((a, b) => a - b);
      expect(versions).toEqual(Array.from({ length: keys.length }, (_, i) => i + 1));
      expect((await http.post(`/v1/targets/${id}/replay`)).body).toMatchObject({ status: 'success', materialized_state_matches: true, reconstructed_version: keys.length });
    }
    expect((await http.post('/v1/projections/rebuild')).body).toMatchObject({ status: 'ok', equal: true });
  }, 120_000);

  it('a token revoked while the listener was cut off stops working within a second of the database being back', async () => {
    const doomed = http.withToken(tokens.doomed!.token);
    const id = (await http.post('/v1/targets', { filename: 'revoke.md', content: 'x\n' })).body.target_file_id as string;
    expect((await doomed.get(`/v1/targets/${id}`)).status).toBe(200); // verified, and now in the gateway's cache

    await proxy.cut();
    const revoked = await runCli(['tokens', 'revoke', tokens.doomed!.token_id], { env: store.env }); // straight to the database
    expect(revoked.code).toBe(0);
    await proxy.restore();
    const back = performance.now();

    const answers: number[] = [];
    for (;;) {
      const r = await doomed.get(`/v1/targets/${id}`);
      answers.push(r.status);
      if (r.status === 401) break;
      expect(performance.now() - back).toBeLessThan(1_000);
      await sleep(25);
    }
    expect(answers.filter((s) => s === 200)).toEqual([]); // never accepted after the revoke (503 while reconnecting)
    expect(performance.now() - back).toBeLessThan(1_000);
  });
});
