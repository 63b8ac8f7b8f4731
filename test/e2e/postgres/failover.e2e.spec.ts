import pg from 'pg';
import { HttpClient, type HttpAnswer } from '../../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../../support/http-server';
import { startCluster, type PgCluster } from '../../support/pg-cluster';

const WRITERS = 16;
/** The primary is killed once this many writes are acknowledged. */
const KILL_AFTER = 80;
/** Each writer's acknowledged writes after the promotion before the writers stop. */
const AFTER_PROMOTION = 3;
const INITIAL = 'head\nEND\n';
const DATABASE = 'palimpsest';

interface Write {
  writer: number;
  marker: string;
  keys: string[];
  /** Requests answered with no decision (the database was away): each resent with its key. */
  unknown: number;
  accepted?: { attempt_id: string; key: string; deduplicated: boolean };
  /** When its first request went out and when its decision came (Date.now()). */
  sentAt?: number;
  decidedAt?: number;
}

const markersIn = (text: string) => text.split('\n').filter((l) => l !== 'head' && l !== 'END' && l !== '');

/**
 * A gateway whose DATABASE_URL names a primary and its synchronous standby. 16 writers submit keyed edits;
 * the primary is killed (SIGKILL of every server process) and the standby promoted. The gateway reconnects to
 * the new primary by itself; every write it had acknowledged is there, and every request it could not decide
 * is resent with its key and decided once.
 */
describe('failover to a synchronous standby', () => {
  let cluster: PgCluster;
  let api: ApiProcess;
  let http: HttpClient;
  const targets: string[] = [];
  const known: number[] = [];
  const writes: Write[] = [];

  beforeAll(async () => {
    cluster = await startCluster();
    const admin = new pg.Client({ connectionString: cluster.primary.uri('postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    const env = { DATABASE_URL: cluster.uri(DATABASE), PALIMPSEST_PG_CONNECT_TIMEOUT_MS: '3000' };
    const token = (await seedTokens(env, { all: 'read,write,operator,auditor' })).all!.token;
    api = await startApi(env, ['--no-local-token']);
    http = new HttpClient(api.url, token);
    for (let w = 0; w < WRITERS; w++) {
      const r = await http.post('/v1/targets', { filename: `w${w}.md`, content: INITIAL });
      expect(r.status).toBe(201);
      targets.push(r.body.target_file_id);
      known.push(0);
    }
  }, 180_000);
  afterAll(async () => {
    await api?.stop('SIGKILL');
    await cluster?.dispose();
  });

  const submit = (w: Write, key: string): Promise<HttpAnswer> =>
    http.post(
      `/v1/targets/${targets[w.writer]}/edits`,
      { intent: 'failover', edits: [{ match: 'END', replace: `${w.marker}\nEND` }] },
      { headers: { 'if-match': `"${known[w.writer]}"`, 'idempotency-key': key } },
    );

  /** One write to its decision: the same key again while the answer is not a decision, a fresh one after a stale answer. */
  async function decide(w: Write): Promise<void> {
    let key = `${w.marker}.0`;
    w.keys.push(key);
    w.sentAt = Date.now();
    const deadline = Date.now() + 60_000;
    for (;;) {
      let r: HttpAnswer | null = null;
      try {
        r = await submit(w, key);
      } catch {
        r = null; // the connection to the gateway failed: no answer, so no decision known
      }
      if (r?.status === 200 && r.body?.status === 'accepted') {
        w.accepted = { attempt_id: r.body.attempt_id, key, deduplicated: r.body.deduplicated === true };
        known[w.writer] = r.body.current_version;
        w.decidedAt = Date.now();
        return;
      }
      if (r?.status === 409 && r.body?.failure_reason === 'target_version_mismatch') {
        known[w.writer] = r.body.current_version;
        key = `${w.marker}.${w.keys.length}`;
        w.keys.push(key);
        continue;
      }
      if (r && r.status !== 503) throw new Error(`unexpected answer to ${key}: ${r.status} ${JSON.stringify(r.body)}`);
      w.unknown++;
      if (Date.now() > deadline) throw new Error(`${key} undecided after 60 s: ${JSON.stringify(r?.body)}\n${api.stderr().slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 50)); // the database is away: ask again, same key
    }
  }

  it(`${WRITERS} writers: kill -9 of the primary and promotion of the standby lose no acknowledged write and apply none twice`, async () => {
    let acknowledged = 0;
    let promoted = false;
    let failover: Promise<void> | null = null;
    const afterPromotion = new Array<number>(WRITERS).fill(0);
    const failoverAt: { killed?: number; promoted?: number } = {};
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, writer) => {
        for (let n = 0; !promoted || afterPromotion[writer]! < AFTER_PROMOTION; n++) {
          const w: Write = { writer, marker: `w${writer}-${n}`, keys: [], unknown: 0 };
          writes.push(w);
          const wasPromoted = promoted;
          await decide(w);
          if (wasPromoted) afterPromotion[writer]!++;
          if (++acknowledged >= KILL_AFTER && !failover) {
            failover = (async () => {
              cluster.primary.kill();
              failoverAt.killed = Date.now();
              cluster.standby.promote();
              failoverAt.promoted = Date.now();
              promoted = true;
            })();
          }
        }
      }),
    );
    expect(promoted).toBe(true);
    expect(failoverAt.promoted! - failoverAt.killed!).toBeLessThan(60_000); // pg_ctl promote's own bound
    // The kill caught writes in flight: sent to the old primary, decided on the new one, answered 503 (or not at
    // all) and resent by key on the way, or carried across by the gateway's reconnect. Either way each is checked below.
    expect(writes.filter((w) => w.sentAt! < failoverAt.killed! && w.decidedAt! > failoverAt.promoted!).length).toBeGreaterThan(0);

    // Through the gateway, now on the promoted standby: every acknowledged marker once, each version one marker.
    for (const [writer, id] of targets.entries()) {
      const r = await http.get(`/v1/targets/${id}`);
      expect(r.status).toBe(200);
      const markers = markersIn(r.body.current_content);
      const mine = writes.filter((w) => w.writer === writer).map((w) => w.marker);
      expect({ writer, markers, version: r.body.version }).toEqual({ writer, markers: mine, version: mine.length });
    }
    // On the new primary itself: every acknowledged attempt's acceptance, each key accepted once.
    const db = new pg.Client({ connectionString: cluster.standby.uri(DATABASE) });
    await db.connect();
    try {
      const { rows } = await db.query<{ attempt_id: string; key: string }>(
        `SELECT data->>'attempt_id' AS attempt_id, data->>'client_request_id' AS key FROM events WHERE event_type = 'ProposalAccepted'`,
      );
      const attempts = new Set(rows.map((r) => r.attempt_id));
      expect(writes.filter((w) => !attempts.has(w.accepted!.attempt_id)).map((w) => w.marker)).toEqual([]);
      const keys = rows.map((r) => r.key);
      expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
      expect(rows).toHaveLength(writes.length);
      const { rows: recovery } = await db.query<{ recovering: boolean }>('SELECT pg_is_in_recovery() AS recovering');
      expect(recovery[0]!.recovering).toBe(false);
    } finally {
      await db.end();
    }
  }, 240_000);
});
