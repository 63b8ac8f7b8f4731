import { isolatedStore } from '../../support/cli-process';
import { readEventLog } from '../../support/crash-recovery';
import { HttpClient, type HttpAnswer } from '../../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../../support/http-server';
import { SseReader } from '../../support/http-sse';

const CLIENTS = 64;
const TARGETS = 200;
/** Markers each client adds in the one-target round and in the many-target round. */
const JOBS_ON_ONE = 3;
const JOBS_ON_MANY = 8;
/** The second gateway is killed once this share of the many-target round's markers is answered. */
const KILL_AT = 0.4;
/** One line per client: a client's markers go on its own line, so rebase carries them past the others'. */
const SLOTS = Array.from({ length: CLIENTS }, (_, c) => `<s${c}>`);
const INITIAL = `${SLOTS.join('\n')}\n`;

interface Gateway {
  api: ApiProcess;
  http: HttpClient;
  dead: boolean;
}

/** One marker to get onto a target exactly once: a new key after a stale answer, the same key after a lost one. */
interface Job {
  client: number;
  target: string;
  marker: string;
  keys: string[];
  /** Requests whose gateway died before answering (each resent with its key). */
  lost: number;
  accepted?: { key: string; attempt_id: string; deduplicated: boolean; gateway: number };
}

const markersIn = (text: string) => text.split('\n').flatMap((line) => line.replace(/^<s\d+>/, '').split(',').filter(Boolean));

/**
 * Several gateways on one PostgreSQL database are one record: two `palimpsest api` processes share a
 * database, 64 clients split across them write to one target and then to 200, and one gateway is killed
 * (SIGKILL) under load. Every acknowledged marker is on its target once, nothing applies twice, versions
 * stay contiguous, and the requests the killed gateway never answered are resolved by their keys on the other.
 */
describe('two gateways on one PostgreSQL database', () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let token: string;
  const gateways: Gateway[] = [];
  const known = new Map<string, number>();
  const jobs: Job[] = [];
  let sameKeyAccepted = 0;
  /** Keyed acceptances outside the rounds' jobs. */
  let extraAccepted = 0;

  beforeAll(async () => {
    store = await isolatedStore();
    token = (await seedTokens(store.env, { all: 'read,write,operator,auditor' })).all!.token;
    const apis = await Promise.all([0, 1].map(() => startApi(store.env, ['--no-local-token'])));
    for (const api of apis) gateways.push({ api, http: new HttpClient(api.url, token), dead: false });
  }, 90_000);
  afterAll(async () => {
    for (const g of gateways) await g.api.stop('SIGKILL');
    await store?.dispose();
  });

  async function create(name: string, gateway: Gateway): Promise<string> {
    const r = await gateway.http.post('/v1/targets', { filename: `${name}.md`, content: INITIAL });
    expect(r.status).toBe(201);
    known.set(r.body.target_file_id, 0);
    return r.body.target_file_id as string;
  }

  const submit = (g: Gateway, job: Job, key: string, version: number): Promise<HttpAnswer> =>
    g.http.post(
      `/v1/targets/${job.target}/edits`,
      { intent: 'two gateways', rebase: true, edits: [{ match: SLOTS[job.client]!, replace: `${SLOTS[job.client]}${job.marker},` }] },
      { headers: { 'if-match': `"${version}"`, 'idempotency-key': key } },
    );

  /** The client's gateway while it lives, else the other one. */
  const gatewayOf = (client: number): [number, Gateway] => {
    const own = client % 2;
    return gateways[own]!.dead ? [1 - own, gateways[1 - own]!] : [own, gateways[own]!];
  };

  /** Runs one job to its acceptance: a fresh key after a stale answer, the same key again when the answer was lost. */
  async function run(job: Job, answered: () => void): Promise<void> {
    let key = `${job.marker}.0`;
    let version = known.get(job.target)!;
    job.keys.push(key);
    for (;;) {
      const [index, g] = gatewayOf(job.client);
      let r: HttpAnswer;
      try {
        r = await submit(g, job, key, version);
      } catch {
        job.lost++;
        continue; // the gateway died under the request: the same key to whichever gateway serves now
      }
      if (r.status === 200 && r.body?.status === 'accepted') {
        job.accepted = { key, attempt_id: r.body.attempt_id, deduplicated: r.body.deduplicated === true, gateway: index };
        known.set(job.target, Math.max(known.get(job.target)!, r.body.current_version));
        answered();
        return;
      }
      if (r.status === 409 && r.body?.failure_reason === 'target_version_mismatch') {
        version = Math.max(version, r.body.current_version);
        key = `${job.marker}.${job.keys.length}`;
        job.keys.push(key);
        continue;
      }
      throw new Error(`unexpected answer to ${key} from gateway ${index}: ${r.status} ${JSON.stringify(r.body)}`);
    }
  }

  async function clients(round: Job[], answered: () => void): Promise<void> {
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (const job of round.filter((j) => j.client === client)) await run(job, answered);
      }),
    );
  }

  async function textOf(target: string): Promise<{ text: string; version: number }> {
    const r = await gatewayOf(0)[1].http.get(`/v1/targets/${target}`);
    expect(r.status).toBe(200);
    return { text: r.body.current_content, version: r.body.version };
  }

  /** Every marker of the round on its target exactly once, nothing else, the version counting them. */
  async function expectEveryMarkerOnce(round: Job[]): Promise<void> {
    const byTarget = new Map<string, string[]>();
    for (const job of jobs) byTarget.set(job.target, [...(byTarget.get(job.target) ?? []), job.marker]);
    for (const target of new Set(round.map((j) => j.target))) {
      const { text, version } = await textOf(target);
      const markers = markersIn(text);
      expect({ target, markers: [...markers].sort(), version }).toEqual({ target, markers: [...byTarget.get(target)!].sort(), version: markers.length });
    }
  }

  it('the same idempotency key sent to both gateways at once is decided once: one attempt, the other answer its replay', async () => {
    const target = await create('same-key', gateways[0]!);
    const answers = await Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        const job: Job = { client: i, target, marker: `k${i}`, keys: [`k${i}`], lost: 0 };
        const both = await Promise.all(gateways.map((g) => submit(g, job, `same-${i}`, 0)));
        return { i, both };
      }),
    );
    for (const { i, both } of answers) {
      // Both answers are the one recorded outcome: accepted (rebased past the others) or stale, never two attempts.
      const ids = both.map((r) => r.body?.attempt_id);
      expect({ i, statuses: both.map((r) => r.status), same: ids[0] === ids[1] }).toEqual({ i, statuses: [both[0]!.status, both[0]!.status], same: true });
      expect(both.map((r) => r.body.deduplicated === true).sort()).toEqual([false, true]);
    }
    sameKeyAccepted = answers.filter(({ both }) => both[0]!.body.status === 'accepted').length;
    expect(sameKeyAccepted).toBeGreaterThan(0);
    const { text, version } = await textOf(target);
    expect({ version, markers: markersIn(text).length }).toEqual({ version: sameKeyAccepted, markers: sameKeyAccepted });
  }, 60_000);

  it('a live event stream held on one gateway shows a write made through the other; a candidate proposed on one applies through the other', async () => {
    const target = await create('across', gateways[0]!);
    const stream = await SseReader.open(`${gateways[0]!.api.url}/v1/targets/${target}/events`, { token });
    expect(stream.status).toBe(200);
    expect(await stream.nextEvent()).toMatchObject({ event: 'TargetInitialized' });
    const written = await submit(gateways[1]!, { client: 0, target, marker: 'streamed', keys: [], lost: 0 }, 'across-1', 0);
    expect(written.body).toMatchObject({ status: 'accepted', version: 1 });
    const event = await stream.nextEvent();
    stream.close();
    expect({ event: event!.event, attempt: JSON.parse(event!.data).data.attempt_id }).toEqual({ event: 'ProposalAccepted', attempt: written.body.attempt_id });

    const proposal = {
      base: [{ target_file_id: target, version: 1 }],
      operations: [{ kind: 'edit', target_file_id: target, match: SLOTS[1], replace: `${SLOTS[1]}candidate,` }],
    };
    const proposed = await gateways[0]!.http.post('/v1/candidates', proposal, { headers: { 'idempotency-key': 'across-propose' } });
    expect(proposed.body).toMatchObject({ status: 'ok', candidate: { version: 1, state: 'open' } });
    const applied = await gateways[1]!.http.post(`/v1/candidates/${proposed.body.candidate.id}/apply`, {}, { headers: { 'if-match': '"1"', 'idempotency-key': 'across-apply' } });
    expect(applied.body.receipt).toMatchObject({ outcome: 'applied' });
    // The same key on the first gateway: the recorded receipt, not a second apply.
    const again = await gateways[0]!.http.post(`/v1/candidates/${proposed.body.candidate.id}/apply`, {}, { headers: { 'if-match': '"1"', 'idempotency-key': 'across-apply' } });
    expect({ replayed: again.body.replayed, receipt: again.body.receipt?.receipt_id }).toEqual({ replayed: true, receipt: applied.body.receipt.receipt_id });
    const { text, version } = await textOf(target);
    expect({ markers: markersIn(text).sort(), version }).toEqual({ markers: ['candidate', 'streamed'], version: 2 });
    extraAccepted += 1; // the streamed write; the candidate's apply records no ProposalAccepted keyed by a request
  }, 60_000);

  it(`${CLIENTS} clients on one target, half on each gateway: every marker once, each version one marker`, async () => {
    const target = await create('one', gateways[1]!);
    const round = Array.from({ length: CLIENTS * JOBS_ON_ONE }, (_, n): Job => ({ client: n % CLIENTS, target, marker: `o${n}`, keys: [], lost: 0 }));
    jobs.push(...round);
    await clients(round, () => undefined);
    expect(new Set(round.map((j) => j.accepted!.gateway))).toEqual(new Set([0, 1]));
    await expectEveryMarkerOnce(round);
  }, 120_000);

  it(`${CLIENTS} clients on ${TARGETS} targets; kill -9 of one gateway mid-load: the other serves on and settles the lost requests by their keys`, async () => {
    const targets: string[] = [];
    for (let t = 0; t < TARGETS; t++) targets.push(await create(`many-${t}`, gateways[t % 2]!));
    const round = Array.from({ length: CLIENTS * JOBS_ON_MANY }, (_, n): Job => ({
      client: n % CLIENTS,
      target: targets[(n * 7919) % TARGETS]!,
      marker: `m${n}`,
      keys: [],
      lost: 0,
    }));
    jobs.push(...round);
    let answered = 0;
    const kill: { exited?: ReturnType<ApiProcess['stop']> } = {};
    await clients(round, () => {
      if (++answered < round.length * KILL_AT || kill.exited) return;
      gateways[1]!.dead = true;
      kill.exited = gateways[1]!.api.stop('SIGKILL');
    });
    expect(answered).toBe(round.length); // every job answered, the kill sent at KILL_AT of them
    expect((await kill.exited!).code).toBeNull(); // ended by the signal

    const lost = round.filter((j) => j.lost > 0);
    expect(lost.length).toBeGreaterThan(0); // the kill cut requests off in flight
    // Each lost request was settled on the surviving gateway by its key: found applied (deduplicated) or decided now.
    for (const job of lost) expect(job.accepted!.gateway).toBe(0);
    const afterKill = round.filter((j) => j.accepted!.gateway === 0 && j.client % 2 === 1);
    expect(afterKill.length).toBeGreaterThan(0); // the killed gateway's clients were served on by the other
    await expectEveryMarkerOnce(round);
  }, 240_000);

  it('the event log: versions contiguous on every target, every key accepted at most once, every marker once', async () => {
    await gateways[0]!.api.stop();
    const log = await readEventLog(store.env);
    const versions = new Map<string, number[]>();
    for (const e of log) if (e.stream_id.startsWith('target-')) versions.set(e.stream_id, [...(versions.get(e.stream_id) ?? []), e.stream_version]);
    for (const [stream, list] of versions) expect({ stream, list }).toEqual({ stream, list: list.map((_, i) => i + 1) });
    const acceptedKeys = log.filter((e) => e.event_type === 'ProposalAccepted').map((e) => e.data.client_request_id as string | null).filter((k): k is string => k !== null);
    expect(acceptedKeys.filter((k, i) => acceptedKeys.indexOf(k) !== i)).toEqual([]);
    // Each job's accepted key is the one the log accepted: its marker's one attempt.
    const accepted = new Set(acceptedKeys);
    expect(jobs.filter((j) => !accepted.has(j.accepted!.key)).map((j) => j.accepted!.key)).toEqual([]);
    expect(accepted.size).toBe(jobs.length + sameKeyAccepted + extraAccepted); // the rounds' markers, the same-key test's acceptances and the rest
  }, 60_000);
});
