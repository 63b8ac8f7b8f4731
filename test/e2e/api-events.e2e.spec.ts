import { isolatedStore } from '../support/cli-process';
import { HttpClient, type HttpAnswer } from '../support/http-client';
import { SseReader } from '../support/http-sse';
import { seedTokens, startApi, type ApiProcess } from '../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const SUBMITS_PER_WRITER = 30;

/** The live event stream (resume without gaps or duplicates under load) and graceful shutdown. */
describe(`palimpsest api: event stream and shutdown on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let api: ApiProcess;
  let http: HttpClient;
  let token: string;
  const env = () => ({ ...store.env, PALIMPSEST_API_SSE_HEARTBEAT_MS: '300' });

  beforeAll(async () => {
    store = await isolatedStore();
    ({ all: { token } } = await seedTokens(store.env, { all: 'read,write,auditor,operator' }));
    api = await startApi(env(), ['--no-local-token']);
    http = new HttpClient(api.url, token);
  });
  afterAll(async () => {
    await api?.stop();
    await store.dispose();
  });

  const create = async (content: string) => (await http.post('/v1/targets', { filename: 'e.md', content })).body.target_file_id as string;

  /** Keeps submitting guarded edits at the version it last saw; every answer is one recorded attempt. */
  async function writer(targets: string[], attempts: Map<string, string[]>): Promise<void> {
    for (let i = 0; i < SUBMITS_PER_WRITER; i++) {
      const id = targets[i % targets.length]!;
      const seen = (await http.get(`/v1/targets/${id}`)).body.version as number;
      const edits = [{ match: `<${seen}>`, replace: `<${seen + 1}>` }]; // applicable exactly when the guard holds
      const r = await http.post(`/v1/targets/${id}/edits`, { intent: 'w', expected_target_version: seen, edits });
      expect([200, 409]).toContain(r.status);
      attempts.get(id)!.push(r.body.attempt_id);
    }
  }

  it('delivers every event exactly once across disconnects with Last-Event-ID while 4 writers submit', async () => {
    const watched = await create('<0>\n');
    const other = await create('<0>\n'); // interleaves global positions from another stream
    const attempts = new Map([[watched, [] as string[]], [other, [] as string[]]]);
    const writers = Promise.all([0, 1, 2, 3].map((w) => writer(w % 2 ? [watched, other] : [watched], attempts)));

    const received: { id: number; version: number; attempt: string | undefined }[] = [];
    let lastEventId: string | undefined;
    let writing = true;
    void writers.finally(() => (writing = false));
    for (let session = 0; writing || session < 2; session++) {
      const sse = await SseReader.open(`${api.url}/v1/targets/${watched}/events`, { token, lastEventId });
      expect(sse.status).toBe(200);
      for (let n = 0; n < 7; n++) {
        const event = await sse.nextEvent(1_500).catch(() => null); // a quiet spell just means another reconnect
        if (!event) break;
        const data = JSON.parse(event.data);
        received.push({ id: Number(event.id), version: data.stream_version, attempt: data.data.attempt_id });
        lastEventId = event.id!;
      }
      sse.close(); // a disconnect in mid-stream; the next session resumes after lastEventId
    }
    await writers;
    const expected = attempts.get(watched)!;
    // Drain what is left after the writers stopped.
    const tail = await SseReader.open(`${api.url}/v1/targets/${watched}/events`, { token, lastEventId });
    while (received.length < expected.length + 1) {
      const event = await tail.nextEvent(10_000);
      const data = JSON.parse(event!.data);
      received.push({ id: Number(event!.id), version: data.stream_version, attempt: data.data.attempt_id });
    }
    tail.close();

    expect(received.map((r) => r.version)).toEqual(Array.from({ length: expected.length + 1 }, (_, i) => i + 1));
    expect(received.every((r, i) => i === 0 || r.id > received[i - 1]!.id)).toBe(true);
    expect(received.slice(1).map((r) => r.attempt).sort()).toEqual([...expected].sort());
  });

  it('starts from ?after=, sends heartbeat comments, and refuses a bad Last-Event-ID or unknown target', async () => {
    const id = await create('x\n');
    await http.post(`/v1/targets/${id}/edits`, { intent: 'w', expected_target_version: 0, edits: [{ match: 'x', replace: 'y' }] });
    const first = await SseReader.open(`${api.url}/v1/targets/${id}/events`, { token });
    const initialized = await first.nextEvent();
    expect(initialized).toMatchObject({ event: 'TargetInitialized' });
    first.close();
    const resumed = await SseReader.open(`${api.url}/v1/targets/${id}/events?after=${initialized!.id}`, { token });
    expect(resumed.headers.get('content-type')).toContain('text/event-stream');
    expect(await resumed.next()).toEqual({ kind: 'retry', ms: 2000 });
    expect(await resumed.nextEvent()).toMatchObject({ event: 'ProposalAccepted' });
    expect(await resumed.next(3000)).toMatchObject({ kind: 'comment', text: expect.stringMatching(/^heartbeat /) });
    resumed.close();

    const bad = await http.get(`/v1/targets/${id}/events`, undefined, { headers: { 'last-event-id': 'abc' } });
    expect(bad).toMatchObject({ status: 400, body: { code: 'invalid_last_event_id' } });
    expect((await http.get(`/v1/targets/${id}/events`, { after: -1 })).status).toBe(400);
    const unknown = await http.get('/v1/targets/00000000-0000-4000-8000-000000000000/events');
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
  });

  it('finishes in-flight requests on SIGTERM, closes streams cleanly and exits 0', async () => {
    const id = await create('x\n');
    const stream = await SseReader.open(`${api.url}/v1/targets/${id}/events`, { token });
    expect(await stream.nextEvent()).toMatchObject({ event: 'TargetInitialized' });
    // Open 30 keep-alive connections first, so every submission below travels on an accepted socket:
    // the answer to each must then be complete (or a clean 503), never a reset.
    await Promise.all(Array.from({ length: 30 }, () => http.get('/health', undefined, { token: null })));
    let signalled = false;
    const submits: Promise<HttpAnswer & { afterSignal: boolean }>[] = [];
    for (let i = 0; i < 30; i++) {
      const body = { intent: 'w', expected_target_version: 0, client_request_id: `shutdown-${i}`, edits: [{ match: 'x', replace: `y${i}` }] };
      submits.push(http.post(`/v1/targets/${id}/edits`, body).then((r) => ({ ...r, afterSignal: signalled })));
    }
    await Promise.race(submits); // the gateway is answering: the others are in flight or queued on their sockets
    signalled = true;
    const exit = api.stop('SIGTERM');
    const answers = await Promise.all(submits);
    expect(answers.every((a) => [200, 409, 503].includes(a.status))).toBe(true);
    let item;
    while ((item = await stream.next(5000)) !== null) if (item.kind === 'comment' && item.text.startsWith('server shutting down')) break;
    expect(item).toMatchObject({ kind: 'comment', text: expect.stringContaining('reconnect with Last-Event-ID') });
    expect(await stream.next(5000)).toBeNull();
    const { code, stderr } = await exit;
    expect(code).toBe(0);
    expect(stderr).toContain('palimpsest api: stopped');

    // Nothing half-done: every answered submission is one recorded attempt, and replay agrees.
    api = await startApi(env(), ['--no-local-token']);
    http = new HttpClient(api.url, token);
    const decided = answers.filter((a) => a.status !== 503);
    const log = await http.get(`/v1/targets/${id}/attempts`, { limit: 200 });
    expect(log.body.entries.map((e: any) => e.attempt_id).sort()).toEqual(decided.map((a) => a.body.attempt_id).sort());
    expect((await http.post(`/v1/targets/${id}/replay`)).body).toMatchObject({ status: 'success', materialized_state_matches: true });
  });
});
