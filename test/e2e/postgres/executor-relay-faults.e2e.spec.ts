import { existsSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { EXECUTOR_MAX_MESSAGE_BYTES } from '@palimpsest/protocol/executor/executor-protocol';
import { openDb } from '@palimpsest/store/open-db';
import { isolatedStore } from '../../support/cli-process';
import { rawLink, startConnect, waitFor, type ConnectProcess, type RawLink } from '../../support/executor-link-client';
import { startFaultProxy, type Fault, type FaultProxy } from '../../support/fault-proxy';
import { HttpClient } from '../../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const INTERVAL_MS = 500;
const TIMEOUT_MS = 3_000;
/** A relayed call's deadline here: short, so that faults leave callers in doubt and keys are sent again. */
const RELAY_TIMEOUT_MS = 4_000;
const CALLS = Number(process.env.RELAY_FAULT_CALLS ?? 1_000);
const LANES = 8;
/** Every caller's outcome is known this long after the executor is back at the latest. */
const SETTLED_WITHIN_MS = 30_000;
const SEED = Number(process.env.RELAY_FAULT_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** mulberry32: the fault schedule and the call mix from one printed seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const requestIdOf = (key: string) => `rq_${createHash('sha256').update(`request\0${key}`, 'utf8').digest('hex').slice(0, 40)}`;
const hello = (deviceId: string, projects = [{ id: `prj_${deviceId}`, slug: deviceId }]) => ({ type: 'hello', protocolVersion: 1, deviceId, cliVersion: 'raw', platform: 'test', projects });

type Verdict = 'applied' | 'not_applied' | 'unknown';

interface Call {
  key: string;
  tool: 'edit_file' | 'write_file';
  path: string;
  body: Record<string, unknown>;
  firstSentAt: number;
  knownAt: number | null;
  verdict: Verdict;
  sends: number;
  answers: Record<string, unknown>[];
}

/** What an answer says about whether the write happened; anything else is unexpected. */
function verdictOf(answer: Record<string, any>): Verdict | null {
  if (answer.status === 'ok') return 'applied';
  if (answer.outcome === 'unknown') return 'unknown';
  // Refused before it was sent (its executor away), or by the executor before it ran (past its deadline).
  if (answer.outcome === 'not_applied') return 'not_applied';
  return null;
}

/**
 * One real `palimpsest api` and one real `palimpsest connect` behind a TCP proxy the test controls. First a
 * hostile executor (raw WebSocket, an executor token) sends what the protocol refuses while the real one
 * keeps serving; then 1,000 relayed edit_file and write_file calls with idempotency keys run while the
 * proxy cuts, stalls, blackholes and flaps the link at random (seeded) and the executor is SIGKILLed in
 * the middle of a publication and started again. The files on the executor's disk, its store and the
 * gateway's record are then held to: every acknowledged write present, none applied twice, and every
 * caller's outcome known within 30 s of the executor's return.
 */
describe(`executor relay under link faults (palimpsest api ⇄ proxy ⇄ palimpsest connect) on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let api: ApiProcess;
  let http: HttpClient;
  let proxy: FaultProxy;
  let tokens: Record<string, { token: string; token_id: string }>;
  let root: string;
  let site: string;
  let executor: ConnectProcess;
  let wsUrl: string;

  const projects = async () => (await http.get('/v1/projects')).body.projects as { slug: string; online: boolean }[];
  const siteOnline = async () => (await projects()).some((p) => p.slug === 'site' && p.online);
  const executorsConnected = async () => (await http.get('/health', undefined, { token: null })).body.info.executors.connected as number;
  const open = async (): Promise<RawLink> => {
    const link = await rawLink(wsUrl, tokens.raw!.token);
    if (!('ws' in link)) throw new Error(`upgrade refused: ${link.status}`);
    return link;
  };
  const startExecutor = () => startConnect(proxy.url, tokens.site!.token, { site });
  const post = async (call: Call) => (await http.post(call.tool === 'edit_file' ? '/v1/files/edit' : '/v1/files/content', call.body)).body as Record<string, any>;

  beforeAll(async () => {
    // eslint-disable-next-line no-console
    console.log(`executor relay faults: seed ${SEED} (RELAY_FAULT_SEED=${SEED} repeats the call mix and the sequence of faults; where they land depends on timing)`);
    store = await isolatedStore();
    tokens = await seedTokens(store.env, { site: 'executor', raw: 'executor', agent: 'read,write' });
    api = await startApi(
      {
        ...store.env,
        PALIMPSEST_EXECUTOR_HEARTBEAT_INTERVAL_MS: String(INTERVAL_MS),
        PALIMPSEST_EXECUTOR_HEARTBEAT_TIMEOUT_MS: String(TIMEOUT_MS),
        PALIMPSEST_RELAY_TIMEOUT_MS: String(RELAY_TIMEOUT_MS),
      },
      ['--no-local-token'],
    );
    http = new HttpClient(api.url, tokens.agent!.token);
    wsUrl = `${api.url.replace(/^http/, 'ws')}/v1/executors/connect`;
    const gateway = new URL(api.url);
    proxy = await startFaultProxy({ host: gateway.hostname, port: Number(gateway.port) });
    root = mkdtempSync(join(tmpdir(), 'palimpsest-relay-faults-'));
    site = mkdtempSync(join(root, 'site-'));
    for (let lane = 0; lane < LANES; lane++) writeFileSync(join(site, `lane-${lane}.txt`), 'END\n');
    executor = startExecutor();
    await waitFor(siteOnline, Boolean, 60_000, 'the executor connected through the proxy');
  }, 120_000);

  afterAll(async () => {
    await executor?.stop();
    await proxy?.close();
    await api?.stop();
    await store?.dispose();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('refuses malformed, oversized and out-of-order messages of a hostile executor while the real one keeps serving', async () => {
    const serving = async (n: number) => {
      const answer = (await http.post('/v1/files/content', { project: 'site', path: `hostile/${n}.txt`, content: `${n}\n`, client_request_id: `hostile-${SEED}-${n}` })).body;
      expect(answer).toMatchObject({ status: 'ok', created: true });
    };
    const cases: [string, (link: RawLink) => void | Promise<void>, number, RegExp][] = [
      ['malformed JSON', (l) => l.send('{"type":"hello",'), 4400, /^invalid_message: not_json/],
      ['a schema-invalid hello', (l) => l.send({ ...hello('bad'), protocolVersion: '1' }), 4400, /^invalid_message: schema_violation at \/protocolVersion/],
      ['an unknown message type', (l) => (l.send(hello('odd')), l.send({ type: 'tool.call', requestId: 'x' })), 4400, /^invalid_message: schema_violation/],
      ['an oversized frame', (l) => l.send(`{"type":"heartbeat","at":1,"pad":"${'x'.repeat(EXECUTOR_MAX_MESSAGE_BYTES)}"}`), 1009, /^$/],
      ['a tool.result before hello', (l) => l.send({ type: 'tool.result', requestId: 'rq_1', durationMs: 1, result: { ok: true, value: { status: 'ok' } } }), 4409, /^out_of_order: tool.result before hello$/],
      ['a second hello', (l) => (l.send(hello('twice')), l.send(hello('twice'))), 4409, /^out_of_order: a second hello$/],
      ['a tool.result for a call id nobody sent', (l) => (l.send(hello('liar')), l.send({ type: 'tool.result', requestId: 'rq_nothing', durationMs: 1, result: { ok: true, value: { status: 'ok' } } })), 4409, /never sent/],
      ['a hello naming the real executor\'s project', (l) => l.send(hello('thief', [{ id: 'prj_thief', slug: 'site' }])), 4422, /^invalid_hello: project "site"/],
    ];
    let n = 0;
    for (const [what, act, code, reason] of cases) {
      const link = await open();
      await act(link);
      const [closed] = await Promise.all([link.closed, serving(n++)]);
      expect({ what, code: closed.code, reason: closed.reason }).toEqual({ what, code, reason: expect.stringMatching(reason) });
    }

    // A tool.result for a call in flight to the real executor (its request id follows from the key), sent
    // by another: refused, and the real call answered by the real executor.
    const thief = await open();
    thief.send(hello('forger'));
    await thief.next('hello.ack');
    const key = `forged-${SEED}`;
    const asked = http.post('/v1/files/content', { project: 'site', path: 'forged.txt', content: 'real\n', client_request_id: key });
    thief.send({ type: 'tool.result', requestId: requestIdOf(key), durationMs: 1, result: { ok: true, value: { status: 'ok', path: 'forged.txt', bytesWritten: 6, created: true } } });
    expect(await thief.closed).toMatchObject({ code: 4409, reason: expect.stringMatching(/^out_of_order: tool.result for rq_\w+, a call this gateway never sent/) });
    expect((await asked).body).toMatchObject({ status: 'ok', created: true });
    expect(readFileSync(join(site, 'forged.txt'), 'utf8')).toBe('real\n');

    // While the real executor is away (its link blackholed), another token cannot take its device and
    // project: the call waiting for it is never handed to the impostor, and it lands once the real one is back.
    const device = (await http.get('/health', undefined, { token: null })).body.info.executors.executors.find((e: any) => e.projects[0].slug === 'site');
    const waited = { project: 'site', path: 'waited.txt', content: 'waited\n', client_request_id: `waited-${SEED}` };
    proxy.begin('blackhole');
    let waiting: Promise<{ body: any }>;
    try {
      waiting = http.post('/v1/files/content', waited);
      await waitFor(siteOnline, (online) => !online, 10_000, 'the blackholed executor dropped');
      const impostor = await open();
      impostor.send(hello(device.device_id, device.projects));
      const refused = await Promise.race([impostor.closed, waitFor(async () => impostor.received.length, (k) => k > 1, 5_000, 'the impostor refused').then(() => null)]);
      expect({ refused, calls: impostor.received.filter((m) => m.type === 'tool.call') }).toEqual({
        refused: { code: 4422, reason: expect.stringMatching(/^invalid_hello: project "site" \(prj_\w+\) belongs to another executor/) },
        calls: [],
      });
    } finally {
      proxy.end();
    }
    // Its outcome is known once the executor is back (sent again under its key should its deadline pass
    // first): written by the real executor, or refused by it past its deadline and not written.
    let answer = (await waiting).body;
    while (answer.outcome === 'unknown') {
      await waitFor(siteOnline, Boolean, 30_000, 'the executor back');
      answer = (await http.post('/v1/files/content', waited)).body;
    }
    const written = existsSync(join(site, 'waited.txt'));
    expect({ answer, written }).toEqual(
      written ? { answer: expect.objectContaining({ status: 'ok', created: true }), written } : { answer: expect.objectContaining({ code: 'TOOL_TIMEOUT', outcome: 'not_applied' }), written },
    );
    await serving(n++);
    expect(await executorsConnected()).toBe(1);
  }, 60_000);

  it(`keeps ${CALLS} relayed writes exact through cuts, stalls, blackholes, flaps and a SIGKILL mid-publication`, async () => {
    const rand = random(SEED);
    const calls: Call[] = [];
    for (let i = 0; i < CALLS; i++) {
      const key = `w-${SEED}-${i}`;
      if (rand() < 0.7) {
        const path = `lane-${i % LANES}.txt`;
        calls.push({ key, tool: 'edit_file', path, body: { project: 'site', path, oldString: 'END', newString: `${key}\nEND`, client_request_id: key }, firstSentAt: 0, knownAt: null, verdict: 'unknown', sends: 0, answers: [] });
      } else {
        const path = `w/${key}.txt`;
        calls.push({ key, tool: 'write_file', path, body: { project: 'site', path, content: `${key}\n`, client_request_id: key }, firstSentAt: 0, knownAt: null, verdict: 'unknown', sends: 0, answers: [] });
      }
    }
    /** When the link was whole again after a fault, and when the restarted executor was back. */
    const recoveries: number[] = [];
    const faults: Record<Fault | 'flap', number> = { cut: 0, stall: 0, blackhole: 0, flap: 0 };
    let finished = 0;
    let stopFaults = false;
    const kill = { at: 0, back: null as number | null, entry: '' };
    const unexpected: { key: string; answer: unknown }[] = [];

    const send = async (call: Call) => {
      if (call.sends === 0) call.firstSentAt = Date.now();
      call.sends++;
      const answer = await post(call);
      call.answers.push(answer);
      const verdict = verdictOf(answer) ?? 'not_applied';
      if (verdictOf(answer) === null) unexpected.push({ key: call.key, answer });
      if (verdict !== 'unknown') {
        call.verdict = verdict;
        call.knownAt = Date.now();
      }
      return verdict;
    };

    // Each lane sends its calls in order. A call in doubt is sent again under the same key once the project
    // is online, until its outcome is known; so is one refused because its executor was away (its key never
    // left the gateway). Some answered calls are sent again too, and answer the same.
    const lane = async (n: number) => {
      for (let i = n; i < calls.length; i += LANES) {
        const call = calls[i]!;
        for (;;) {
          const verdict = await send(call);
          const away = verdict === 'not_applied' && call.answers.at(-1)!.code === 'LOCAL_EXECUTOR_OFFLINE';
          if (verdict !== 'unknown' && !away) break;
          await waitFor(siteOnline, Boolean, 60_000, `the executor back for ${call.key}`).catch((error: Error) => {
            throw new Error(`${error.message}\nproxy: ${proxy.fault ?? 'whole'}, ${proxy.connections} connections; the executor said:\n${executor.stderr().slice(-3_000)}`);
          });
        }
        if (call.verdict === 'applied' && i % 17 === 0) {
          const again = await post(call);
          expect({ key: call.key, again }).toEqual({ key: call.key, again: call.answers.at(-1) });
        }
        finished++;
      }
    };

    // The fault schedule's own clock (how long a fault lasts, how long the link stays whole).
    const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
    const inject = async () => {
      while (!stopFaults) {
        await pause(1_000 + rand() * 2_500);
        if (stopFaults || (kill.at > 0 && kill.back === null)) continue;
        const pick = rand();
        if (pick < 0.25) {
          faults.flap++;
          for (let f = 3 + Math.floor(rand() * 3); f > 0 && !stopFaults; f--) {
            proxy.begin('cut');
            await pause(50 + rand() * 200);
            proxy.end();
            await pause(100 + rand() * 200);
          }
        } else {
          const fault: Fault = pick < 0.5 ? 'cut' : pick < 0.75 ? 'stall' : 'blackhole';
          faults[fault]++;
          proxy.begin(fault);
          await pause(fault === 'stall' ? 200 + rand() * 1_800 : 200 + rand() * 2_300);
          proxy.end();
        }
        recoveries.push(Date.now());
      }
    };

    // SIGKILL once, while a publication is under way: the moment the journal's stage file appears in
    // the project, past 40% of the calls. Then the executor is started again on the same directory.
    const killer = async () => {
      await waitFor(async () => finished, (f) => f >= CALLS * 0.4, 120_000, '40% of the calls');
      const entry = await new Promise<string>((resolve) => {
        const watcher: FSWatcher = watch(site, (_event, name) => {
          if (!name?.startsWith('.palimpsest-') || !name.endsWith('.stage')) return;
          process.kill(executor.pid, 'SIGKILL');
          watcher.close();
          resolve(name);
        });
      });
      Object.assign(kill, { at: Date.now(), entry });
      expect(await executor.exited).toEqual({ code: null, signal: 'SIGKILL' });
      executor = startExecutor();
      await waitFor(() => Promise.resolve(executor.stderr()), (s) => /connected to/.test(s), 60_000, 'the restarted executor connected');
      kill.back = Date.now();
      recoveries.push(kill.back);
    };

    const started = Date.now();
    const faulting = inject();
    const killed = killer();
    await Promise.all(Array.from({ length: LANES }, (_, n) => lane(n)));
    stopFaults = true;
    proxy.end();
    await Promise.all([faulting, killed]);
    const elapsed = Date.now() - started;

    const resent = calls.filter((c) => c.sends > 1).length;
    const count = (v: Verdict) => calls.filter((c) => c.verdict === v).length;
    // eslint-disable-next-line no-console
    console.log(
      `executor relay faults (seed ${SEED}): ${CALLS} calls in ${elapsed} ms, ${count('applied')} applied, ${count('not_applied')} not applied, ${resent} sent again after an unknown outcome; ` +
        `faults ${JSON.stringify(faults)}; SIGKILL at ${kill.entry}, back after ${kill.back! - kill.at} ms; slowest outcome ${Math.max(...calls.map((c) => (c.knownAt ?? Date.now()) - c.firstSentAt))} ms`,
    );

    // Every caller's outcome is known, within the bound of the executor being back.
    expect(calls.filter((c) => c.verdict === 'unknown').map((c) => c.key)).toEqual([]);
    expect(unexpected).toEqual([]);
    const late = calls
      .map((c) => ({ key: c.key, sends: c.sends, waitedMs: c.knownAt! - Math.max(c.firstSentAt, ...recoveries.filter((r) => r <= c.knownAt!)) }))
      .filter((c) => c.waitedMs > SETTLED_WITHIN_MS);
    expect(late).toEqual([]);
    expect(kill.back).not.toBeNull();

    // The executor's disk: each edit's line exactly once when applied, never when not; each write's file likewise.
    await executor.stop();
    const lines = new Map<string, number>();
    for (let n = 0; n < LANES; n++) {
      const text = readFileSync(join(site, `lane-${n}.txt`), 'utf8');
      expect(text.endsWith('END\n')).toBe(true);
      for (const line of text.split('\n')) if (line.startsWith('w-')) lines.set(line, (lines.get(line) ?? 0) + 1);
    }
    const disk = calls.map((c) => {
      const present = c.tool === 'edit_file' ? lines.get(c.key) ?? 0 : existsSync(join(site, c.path)) && readFileSync(join(site, c.path), 'utf8') === `${c.key}\n` ? 1 : 0;
      return { key: c.key, verdict: c.verdict, present };
    });
    expect(disk.filter((d) => d.present !== (d.verdict === 'applied' ? 1 : 0))).toEqual([]);

    // The executor's own store: each request applied (accepted, or a file created) at most once.
    const local = await openDb({ dataDir: join(site, '.palimpsest', 'data') });
    try {
      const { rows } = await local.query<{ correlation_id: string; n: string }>(
        `SELECT metadata->>'correlation_id' AS correlation_id, count(*) AS n FROM events
          WHERE event_type IN ('ProposalAccepted', 'TargetInitialized') AND metadata->>'correlation_id' LIKE 'rq_%'
          GROUP BY 1`,
      );
      const applied = new Map(rows.map((r) => [r.correlation_id, Number(r.n)]));
      expect(calls.map((c) => ({ key: c.key, n: applied.get(requestIdOf(c.key)) ?? 0 })).filter((c) => c.n > 1)).toEqual([]);
      expect(calls.filter((c) => c.verdict === 'applied' && !applied.has(requestIdOf(c.key))).map((c) => c.key)).toEqual([]);
      // The kill landed in a publication: the restarted executor settled the journal it left.
      const reconciled = await local.query<{ n: string }>(`SELECT count(*) AS n FROM events WHERE metadata->>'command' = 'ReconcilePublication'`);
      expect(Number(reconciled.rows[0]!.n)).toBeGreaterThanOrEqual(1);
    } finally {
      await local.close();
    }

    // The gateway's record: one sent per key, at most one answer, and an ok answer for every acknowledged write.
    expect((await api.stop()).code).toBe(0);
    const gateway = store.env.DATABASE_URL ? await openDb({ databaseUrl: store.env.DATABASE_URL }) : await openDb({ dataDir: store.env.PALIMPSEST_DATA_DIR! });
    {
      try {
        const { rows } = await gateway.query<{ key: string; sent: number; answered: number; status: string | null }>(
          `SELECT s.data->>'key' AS key, (count(*) FILTER (WHERE e.event_type = 'RelayCallSent'))::int AS sent,
                  (count(*) FILTER (WHERE e.event_type = 'RelayCallAnswered'))::int AS answered,
                  max(e.data->>'status') FILTER (WHERE e.event_type = 'RelayCallAnswered') AS status
             FROM events e JOIN events s ON s.stream_id = e.stream_id AND s.event_type = 'RelayCallSent'
            WHERE e.stream_id LIKE 'relay-call-%' AND s.data->>'key' LIKE 'w-%' GROUP BY 1`,
        );
        const record = new Map(rows.map((r) => [r.key, r]));
        for (const c of calls.filter((x) => x.verdict === 'applied')) expect({ key: c.key, ...record.get(c.key) }).toEqual({ key: c.key, sent: 1, answered: 1, status: 'ok' });
        expect(rows.filter((r) => r.sent !== 1 || r.answered > 1)).toEqual([]);
      } finally {
        await gateway.close();
      }
    }

  }, 240_000);
});
