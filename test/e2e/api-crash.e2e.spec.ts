import { isolatedStore } from '../support/cli-process';
import { lockHolder, metricValue, processAlive, readEventLog, waitForNoSessions } from '../support/crash-recovery';
import { HttpClient } from '../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const ROUNDS = 4;
/** One writer each: the optimistic one-statement path, group-committed by the AppendBatcher (on PostgreSQL, several targets a statement). */
const BATCHED_TARGETS = 16;
/** WRITERS each: a second write in flight on a target sends it to the locked path (ContentCache.optimisticHead). */
const LOCKED_TARGETS = 3;
const WRITERS = 4;
const JOBS_PER_WRITER = 5;
/** Candidates per round, each over two targets of its own, applied while the submits run. */
const PAIRS = 4;
/** The gateway is killed once this share of the round's markers has been answered accepted or stale. */
const KILL_AT = [0.3, 0.45, 0.6, 0.75];
const INITIAL = 'head\nEND\n';

interface Answer {
  status: number;
  body: any;
}

/** One keyed submit: appends `marker` as a line before END, guarded by the version the writer knew. */
interface Sent {
  key: string;
  target: string;
  version: number;
  marker: string;
  /**
   * A retry names the stale attempt it retries (lineage). That also sends it down the locked path,
   * which looks the parent up: the one way to the lock on PGlite, whose single thread runs a whole
   * submit before it reads the next request (two writes to one target never overlap there).
   */
  parent: string | null;
  answer?: Answer;
  /** The transport error when the gateway died before answering (the resend's answer then fills `answer`). */
  lost?: string;
}

/** A marker to get onto a target exactly once: a new key per stale rejection, the same key after a crash. */
interface Job {
  marker: string;
  target: string;
  attempts: Sent[];
  done: boolean;
}

interface Candidate {
  id: string;
  marker: string;
  pair: [string, string];
  key: string;
  fireAt: number;
  fired?: boolean;
  answer?: Answer;
  lost?: string;
}

const markerLines = (text: string) => text.split('\n').filter((l) => l !== 'head' && l !== 'END' && l !== '');
const occurrences = (text: string, marker: string) => text.split('\n').filter((l) => l === marker).length;
const answerOf = (r: { status: number; body: any }): Answer => ({ status: r.status, body: r.body });
const stale = (a: Answer) => a.status === 409 && a.body?.status === 'rejected' && a.body?.failure_reason === 'target_version_mismatch';

async function inBatches<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    for (let i = next++; i < items.length; i = next++) await fn(items[i]!);
  }));
}

/**
 * kill -9 of a gateway while batched (optimistic, group-committed) and locked (contended) keyed submits
 * and candidate applies are in flight; then a restart on the same store, every target replayed, every
 * request resent with its key. Nothing acknowledged is lost, nothing appears that was not sent, nothing
 * applies twice, a candidate is on both its targets or on neither, versions stay contiguous.
 */
describe(`palimpsest api: kill -9 during in-flight submits on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let api: ApiProcess;
  let http: HttpClient;
  let token: string;
  const locked: string[] = [];
  const pairs: [string, string][] = [];
  const all: string[] = [];
  /** The newest version a writer learned per target (its next guard). */
  const known = new Map<string, number>();
  /** Every marker each target must hold once the rounds are over, in no order. */
  const expected = new Map<string, Set<string>>();
  const jobs: Job[] = [];
  const candidates: Candidate[] = [];
  const metrics = { batchedSubmits: 0, batchStatements: 0, transactions: 0 };
  const stats = { kills: 0, requests: 0, inFlight: 0, inFlightFoundApplied: 0, inFlightAppliedNow: 0, candidatesInFlight: 0, candidatesFoundApplied: 0, restartMs: [] as number[] };
  const started = Date.now();

  const start = async () => {
    api = await startApi(store.env, ['--no-local-token']);
    http = new HttpClient(api.url, token);
  };
  const submit = (s: Sent) => {
    stats.requests++;
    return http.post(
      `/v1/targets/${s.target}/edits`,
      { intent: 'crash', edits: [{ match: 'END', replace: `${s.marker}\nEND` }], ...(s.parent ? { parent_attempt_id: s.parent } : {}) },
      { headers: { 'if-match': `"${s.version}"`, 'idempotency-key': s.key } },
    );
  };
  const apply = (c: Candidate) => {
    stats.requests++;
    return http.post(`/v1/candidates/${c.id}/apply`, {}, { headers: { 'if-match': '"1"', 'idempotency-key': c.key } });
  };
  const learn = (target: string, version: unknown) => {
    if (typeof version === 'number' && version > known.get(target)!) known.set(target, version);
  };

  /** A writer: its jobs one after another; returns at the first answer it cannot read, or when `stop` says so. */
  async function write(queue: Job[], stop: () => boolean, answered: () => void, unexpected: Sent[]): Promise<void> {
    for (const job of queue) {
      while (!job.done) {
        if (stop()) return;
        const parent = job.attempts.at(-1)?.answer?.body?.attempt_id ?? null;
        const s: Sent = { key: `${job.marker}.${job.attempts.length}`, target: job.target, version: known.get(job.target)!, marker: job.marker, parent };
        job.attempts.push(s);
        try {
          s.answer = answerOf(await submit(s));
        } catch (error) {
          s.lost = String((error as { cause?: { code?: string } }).cause?.code ?? error);
          return;
        }
        answered();
        if (!settle(job, s)) return void unexpected.push(s);
      }
    }
  }

  /** Reads an answer into the job: accepted ends it, stale teaches the version. False for anything else. */
  function settle(job: Job, s: Sent): boolean {
    const a = s.answer!;
    if (a.status === 200 && a.body?.status === 'accepted') {
      job.done = true;
      expected.get(job.target)!.add(job.marker);
      learn(job.target, a.body.current_version);
      return true;
    }
    if (stale(a)) {
      learn(job.target, a.body.current_version);
      return true;
    }
    return false;
  }

  async function create(name: string): Promise<string> {
    const r = await http.post('/v1/targets', { filename: `${name}.md`, content: INITIAL });
    expect(r.status).toBe(201);
    const id = r.body.target_file_id as string;
    all.push(id);
    known.set(id, 0);
    expected.set(id, new Set());
    return id;
  }

  async function replayEveryTarget(): Promise<{ checked: number; diverged: unknown[] }> {
    let after: number | null = 0;
    let checked = 0;
    const diverged: unknown[] = [];
    while (after !== null) {
      const page = await http.post('/v1/replay', { limit: 100, after });
      expect(page.status).toBe(200);
      checked += page.body.checked;
      diverged.push(...page.body.diverged);
      after = page.body.next_after;
    }
    return { checked, diverged };
  }

  async function readTargets(): Promise<Map<string, { text: string; version: number }>> {
    const out = new Map<string, { text: string; version: number }>();
    await inBatches(all, 8, async (id) => {
      const r = await http.get(`/v1/targets/${id}`);
      expect(r.status).toBe(200);
      out.set(id, { text: r.body.current_content, version: r.body.version });
    });
    return out;
  }

  /** Each target: only markers that were sent, each at most once, one version per marker (1..n, none skipped). */
  function expectNoPhantomNorDouble(texts: Map<string, { text: string; version: number }>, sent: Map<string, Set<string>>) {
    for (const id of all) {
      const { text, version } = texts.get(id)!;
      const lines = markerLines(text);
      expect({ id, doubled: lines.filter((l, i) => lines.indexOf(l) !== i) }).toEqual({ id, doubled: [] });
      expect({ id, phantom: lines.filter((l) => !sent.get(id)?.has(l)) }).toEqual({ id, phantom: [] });
      expect({ id, version }).toEqual({ id, version: lines.length });
      expect(text.startsWith('head\n') && text.endsWith('END\n')).toBe(true);
    }
  }

  /** The steps share one store: after a failed one, the rest say so instead of failing on what it left. */
  let failed: string | null = null;
  const step = (name: string, fn: () => Promise<void>) =>
    it(name, async () => {
      if (failed) throw new Error(`not run: "${failed}" failed and left the store in an unknown state`);
      try {
        await fn();
      } catch (error) {
        failed = name;
        throw error;
      }
    });

  beforeAll(async () => {
    store = await isolatedStore();
    token = (await seedTokens(store.env, { all: 'read,write,auditor,operator' })).all!.token;
    await start();
    for (let t = 0; t < LOCKED_TARGETS; t++) locked.push(await create(`l${t}`));
    for (let p = 0; p < PAIRS; p++) pairs.push([await create(`c${p}a`), await create(`c${p}b`)]);
  });
  afterAll(async () => {
    await api?.stop('SIGKILL');
    await store?.dispose();
  });

  for (let round = 0; round < ROUNDS; round++) {
    step(`round ${round + 1}: kill -9 at ${Math.round(KILL_AT[round]! * 100)} % answered, restart, replay, resend every key`, async () => {
      // The round's plan: writers and their markers; candidates proposed now, applied during the storm.
      const writers: Job[][] = [];
      const plan = (target: string, tag: string) => {
        const queue = Array.from({ length: JOBS_PER_WRITER }, (_, j): Job => ({ marker: `m-r${round}-${tag}-j${j}`, target, attempts: [], done: false }));
        jobs.push(...queue);
        writers.push(queue);
        return queue;
      };
      // Fresh targets each round: a resent duplicate marks its target contended (ContentCache.markContended)
      // for the next 32 writes, which would keep last round's targets off the optimistic path.
      for (let t = 0; t < BATCHED_TARGETS; t++) plan(await create(`b${round}-${t}`), `b${t}`);
      locked.forEach((id, t) => Array.from({ length: WRITERS }, (_, w) => plan(id, `l${t}w${w}`)));
      const roundJobs = writers.flat();
      const killAt = Math.floor(roundJobs.length * KILL_AT[round]!);
      const roundCandidates: Candidate[] = [];
      for (const [p, pair] of pairs.entries()) {
        const marker = `c-r${round}-p${p}`;
        const proposal = {
          base: pair.map((id) => ({ target_file_id: id, version: known.get(id)! })),
          operations: pair.map((id) => ({ kind: 'edit', target_file_id: id, match: 'END', replace: `${marker}\nEND` })),
        };
        const r = await http.post('/v1/candidates', proposal, { headers: { 'idempotency-key': `propose-r${round}-p${p}` } });
        expect(r.body).toMatchObject({ status: 'ok', candidate: { version: 1, state: 'open' } });
        // Spread over the second half before the kill: early ones answered, late ones in flight.
        roundCandidates.push({ id: r.body.candidate.id, marker, pair, key: `apply-r${round}-p${p}`, fireAt: Math.floor(killAt * (0.5 + (0.5 * p) / PAIRS)) });
      }
      candidates.push(...roundCandidates);
      const sent = new Map(all.map((id) => [id, new Set(expected.get(id))]));
      for (const job of roundJobs) sent.get(job.target)!.add(job.marker);
      for (const c of roundCandidates) for (const id of c.pair) sent.get(id)!.add(c.marker);

      // The storm: every writer at once; the kill once killAt answers are in.
      let answered = 0;
      let stopped = false;
      let killed: Promise<{ exposition: string; holder: number | null; code: number | null }> | undefined;
      const applies: Promise<void>[] = [];
      const unexpected: Sent[] = [];
      const sample = async () => (await http.get('/metrics', undefined, { token: null })).text;
      const atStart = await sample();
      const kill = async () => {
        const exposition = await sample();
        stopped = true;
        const holder = backend === 'pglite' ? lockHolder(store.env.PALIMPSEST_DATA_DIR!) : null;
        const { code } = await api.stop('SIGKILL');
        return { exposition, holder, code };
      };
      const onAnswer = () => {
        answered++;
        for (const c of roundCandidates) {
          if (c.fired || answered < c.fireAt) continue;
          c.fired = true;
          applies.push(apply(c).then((r) => void (c.answer = answerOf(r)), (error) => void (c.lost = String(error.cause?.code ?? error))));
        }
        if (answered >= killAt) killed ??= kill();
      };
      await Promise.all(writers.map((queue) => write(queue, () => stopped, onAnswer, unexpected)));
      expect(answered).toBeGreaterThanOrEqual(killAt); // the storm reached the kill point, so the kill was sent
      if (!killed) throw new Error('the kill was never sent');
      const { exposition, holder, code } = await killed;
      await Promise.all(applies);
      stats.kills++;
      expect(code).toBeNull(); // ended by the signal, not an exit of its own
      expect(unexpected.map((s) => s.answer)).toEqual([]);
      const during = (name: string) => metricValue(exposition, name) - metricValue(atStart, name);
      metrics.batchedSubmits += during('palimpsest_commit_batch_size_sum');
      metrics.batchStatements += during('palimpsest_commit_batch_size_count');
      metrics.transactions += during('palimpsest_db_transaction_duration_seconds_count');
      const inFlight = roundJobs.map((job) => job.attempts.at(-1)).filter((s): s is Sent => s?.lost !== undefined);
      stats.inFlight += inFlight.length;
      expect(inFlight.length).toBeGreaterThan(0);
      expect(roundCandidates.every((c) => c.fired)).toBe(true);

      // Restart on the same store. PGlite: the killed owner's lock is left behind, and taken over.
      if (backend === 'pglite') {
        expect(holder).not.toBeNull();
        expect(processAlive(holder!)).toBe(false);
        expect(lockHolder(store.env.PALIMPSEST_DATA_DIR!)).toBe(holder);
      } else {
        await waitForNoSessions(store.env.DATABASE_URL!); // the dead gateway's statements have ended, committed or not
      }
      const restartAt = Date.now();
      await start();
      stats.restartMs.push(Date.now() - restartAt);
      if (backend === 'pglite') {
        const owner = lockHolder(store.env.PALIMPSEST_DATA_DIR!);
        expect(owner).not.toBe(holder);
        expect(processAlive(owner!)).toBe(true);
      }
      expect((await http.get('/health', undefined, { token: null })).status).toBe(200);

      // (1) Every target replays to its stored state.
      expect(await replayEveryTarget()).toEqual({ checked: all.length, diverged: [] });

      // (2) What survived: every acknowledged marker once, nothing unsent, a candidate on both targets or neither.
      const before = await readTargets();
      expectNoPhantomNorDouble(before, sent);
      for (const job of roundJobs.filter((j) => j.done)) {
        expect({ marker: job.marker, present: occurrences(before.get(job.target)!.text, job.marker) }).toEqual({ marker: job.marker, present: 1 });
      }
      const candidateApplied = new Map<string, boolean>();
      for (const c of roundCandidates) {
        const state = (await http.get(`/v1/candidates/${c.id}`)).body.candidate.state;
        const present = c.pair.map((id) => occurrences(before.get(id)!.text, c.marker));
        expect(['applied', 'open']).toContain(state);
        expect({ candidate: c.marker, state, present }).toEqual({ candidate: c.marker, state, present: state === 'applied' ? [1, 1] : [0, 0] });
        if (c.answer) expect({ candidate: c.marker, answer: c.answer.body?.receipt?.outcome, state }).toEqual({ candidate: c.marker, answer: 'applied', state: 'applied' });
        candidateApplied.set(c.id, state === 'applied');
      }

      // (3a) Every answered request again, same key: the recorded answer, deduplicated.
      const answeredSubmits = roundJobs.flatMap((j) => j.attempts).filter((s) => s.answer);
      await inBatches(answeredSubmits, 16, async (s) => {
        const again = answerOf(await submit(s));
        const first = s.answer!;
        const view = (a: Answer, deduplicated: boolean) => ({ key: s.key, status: a.status, outcome: a.body?.status, attempt: a.body?.attempt_id, version: a.body?.version, reason: a.body?.failure_reason, deduplicated });
        expect(view(again, again.body?.deduplicated)).toEqual(view(first, true));
      });
      for (const c of roundCandidates.filter((c) => c.answer)) {
        const again = await apply(c);
        expect({ key: c.key, status: again.status, replayed: again.body.replayed, receipt: again.body.receipt?.receipt_id }).toEqual({ key: c.key, status: 200, replayed: true, receipt: c.answer!.body.receipt.receipt_id });
      }

      // (3b) Every request the kill cut off, same key: found (applied before the kill) or decided now — once.
      await Promise.all(inFlight.map(async (s) => {
        const present = occurrences(before.get(s.target)!.text, s.marker);
        s.answer = answerOf(await submit(s));
        const job = roundJobs.find((j) => j.attempts.at(-1) === s)!;
        expect({ key: s.key, understood: settle(job, s) }).toEqual({ key: s.key, understood: true });
        const found = s.answer.body.status === 'accepted' && s.answer.body.deduplicated === true;
        expect({ key: s.key, present, found }).toEqual({ key: s.key, present, found: present === 1 });
        if (found) stats.inFlightFoundApplied++;
        else if (s.answer.body.status === 'accepted') stats.inFlightAppliedNow++;
      }));
      for (const c of roundCandidates.filter((c) => !c.answer)) {
        stats.candidatesInFlight++;
        const r = await apply(c);
        c.answer = answerOf(r);
        expect({ key: c.key, status: r.status, outcome: r.body.receipt?.outcome, replayed: r.body.replayed }).toEqual({ key: c.key, status: 200, outcome: 'applied', replayed: candidateApplied.get(c.id) });
        if (candidateApplied.get(c.id)) stats.candidatesFoundApplied++;
      }
      for (const c of roundCandidates) for (const id of c.pair) expected.get(id)!.add(c.marker);

      // Every writer finishes its markers on the new gateway (fresh keys only after a decided stale answer).
      const versions = await readTargets();
      for (const [id, { version }] of versions) learn(id, version);
      const left: Sent[] = [];
      await Promise.all(writers.map((queue) => write(queue, () => false, () => undefined, left)));
      expect(left.map((s) => s.answer)).toEqual([]);
      expect(roundJobs.every((j) => j.done)).toBe(true);

      // Every marker sent is there exactly once, each target's version counts them, and the read models rebuild equal.
      const after = await readTargets();
      expectNoPhantomNorDouble(after, sent);
      for (const id of all) expect({ id, markers: markerLines(after.get(id)!.text).sort() }).toEqual({ id, markers: [...expected.get(id)!].sort() });
      expect(await replayEveryTarget()).toEqual({ checked: all.length, diverged: [] });
      expect((await http.post('/v1/projections/rebuild')).body).toMatchObject({ status: 'ok', equal: true });
    });
  }

  step('the event log: versions contiguous, every key decided once, every marker accepted once', async () => {
    // Both paths ran before the kills. PostgreSQL: several submits per optimistic statement (group commit).
    // PGlite runs a whole submit in one turn of its single thread, so appends never queue up to a batch
    // there: one statement each. Locked: transactions beyond the candidate applies (at most PAIRS a round).
    if (backend === 'postgres') expect(metrics.batchedSubmits).toBeGreaterThan(metrics.batchStatements);
    else expect(metrics.batchStatements).toBeGreaterThan(0);
    expect(metrics.transactions).toBeGreaterThan(PAIRS * ROUNDS);
    expect((await api.stop()).code).toBe(0);
    const log = await readEventLog(store.env);
    const streams = new Map<string, typeof log>();
    for (const e of log) if (e.stream_id.startsWith('target-')) streams.set(e.stream_id, [...(streams.get(e.stream_id) ?? []), e]);
    expect(streams.size).toBe(all.length);
    const acceptedKey = new Map(jobs.map((j) => [j.attempts.find((s) => s.answer?.body?.status === 'accepted')!.key, j]));
    for (const id of all) {
      const events = streams.get(`target-${id}`)!;
      expect(events.map((e) => e.stream_version)).toEqual(events.map((_, i) => i + 1));
      expect(events[0]!.event_type).toBe('TargetInitialized');
      const accepted = events.filter((e) => e.event_type === 'ProposalAccepted');
      expect(events.slice(1).every((e) => e.event_type === 'ProposalAccepted' || e.event_type === 'ProposalRejected')).toBe(true);
      expect(accepted.map((e) => [e.data.before_version, e.data.after_version])).toEqual(accepted.map((_, i) => [i, i + 1]));
      const keys = events.slice(1).map((e) => e.data.client_request_id).filter((k) => k !== null);
      expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]); // no key decided twice
      // Every request sent to the target is recorded once, as what it was answered (first or on resend).
      const decided = events.filter((e) => e.data.client_request_id && !String(e.data.source).startsWith('candidate:'));
      const recorded = (e: (typeof events)[number]) => [e.data.client_request_id, e.event_type === 'ProposalAccepted' ? 'accepted' : 'rejected'];
      const answered = jobs.filter((j) => j.target === id).flatMap((j) => j.attempts).map((s) => [s.key, s.answer?.body?.status]);
      expect(decided.map(recorded).sort()).toEqual(answered.sort());
      const direct = accepted.filter((e) => !String(e.data.source).startsWith('candidate:'));
      const fromCandidates = accepted.filter((e) => String(e.data.source).startsWith('candidate:')).map((e) => String(e.data.source).slice('candidate:'.length));
      expect(direct.map((e) => acceptedKey.get(e.data.client_request_id)?.target)).toEqual(direct.map(() => id));
      expect(direct.length).toBe(jobs.filter((j) => j.target === id).length);
      expect(fromCandidates.sort()).toEqual(candidates.filter((c) => c.pair.includes(id)).map((c) => c.id).sort());
    }
    if (process.env.PALIMPSEST_E2E_STATS) console.log(`${backend}: ${JSON.stringify({ ...stats, seconds: (Date.now() - started) / 1000 })}`);
  });
});
