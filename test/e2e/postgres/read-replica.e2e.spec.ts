import pg from 'pg';
import { HttpClient } from '../../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../../support/http-server';
import { startCluster, type PgCluster } from '../../support/pg-cluster';

const DATABASE = 'palimpsest';

/**
 * A gateway with PALIMPSEST_READ_REPLICA_URL: the reads that tolerate staleness come from the streaming
 * replica, writes go to the primary, and min_position holds read-your-writes. The replica's replay is paused
 * by the test, so what it serves is visibly behind: without min_position the replica's answer (the write is
 * missing), with it the write (the primary answers once the replica does not show it in time).
 */
describe('reads from a streaming replica', () => {
  let cluster: PgCluster;
  let api: ApiProcess;
  let http: HttpClient;
  let standby: pg.Client;
  let target: string;
  let env: NodeJS.ProcessEnv;
  let token: string;

  beforeAll(async () => {
    cluster = await startCluster();
    const admin = new pg.Client({ connectionString: cluster.primary.uri('postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    env = { DATABASE_URL: cluster.primary.uri(DATABASE), PALIMPSEST_READ_REPLICA_URL: cluster.standby.uri(DATABASE) };
    token = (await seedTokens(env, { all: 'read,write,operator,auditor' })).all!.token;
    api = await startApi(env, ['--no-local-token']);
    expect(api.stderr()).toContain('from the read replica');
    http = new HttpClient(api.url, token);
    standby = new pg.Client({ connectionString: cluster.standby.uri(DATABASE) });
    await standby.connect();
    const created = await http.post('/v1/targets', { filename: 'replica.md', content: 'one\n' });
    expect(created.status).toBe(201);
    target = created.body.target_file_id;
  }, 180_000);
  afterAll(async () => {
    await standby?.end().catch(() => undefined);
    await api?.stop('SIGKILL');
    await cluster?.dispose();
  });

  const edit = async (version: number, text: string) => {
    const r = await http.post(`/v1/targets/${target}/edits`, { intent: 'replica', edits: [{ match: 'one', replace: `one\n${text}` }] }, { headers: { 'if-match': `"${version}"` } });
    expect(r.body).toMatchObject({ status: 'accepted' });
    return r.body as { attempt_id: string; log_sequence: number };
  };
  const replicaHolds = async (position: number) =>
    (await standby.query<{ held: boolean }>('SELECT EXISTS (SELECT 1 FROM events WHERE global_position = $1) AS held', [position])).rows[0]!.held;
  const attemptIds = async (query: Record<string, number> = {}) =>
    ((await http.get(`/v1/targets/${target}/attempts`, query)).body.entries as { attempt_id: string }[]).map((e) => e.attempt_id);

  it('answers from the replica as far as it has replayed, and with min_position shows the caller\'s write', async () => {
    const first = await edit(0, 'two');
    for (let tries = 0; !(await replicaHolds(first.log_sequence)); tries++) {
      if (tries > 500) throw new Error('the replica never replayed the first write');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await standby.query('SELECT pg_wal_replay_pause()');
    try {
      // Synchronous replication flushes without applying: the primary commits, the paused replica does not show it.
      const second = await edit(1, 'three');
      expect(await replicaHolds(second.log_sequence)).toBe(false);

      expect(await attemptIds()).toEqual([first.attempt_id]); // served by the replica: behind
      expect(await attemptIds({ min_position: second.log_sequence })).toEqual([second.attempt_id, first.attempt_id]);

      const ledger = await http.get(`/v1/targets/${target}/ledger`, {});
      const ledgerFresh = await http.get(`/v1/targets/${target}/ledger`, { min_position: second.log_sequence });
      expect(ledgerFresh.body.entries.length).toBe(ledger.body.entries.length + 1);

      const since = await http.get('/v1/changes', { target_file_id: target, from_version: 0 });
      const sinceFresh = await http.get('/v1/changes', { target_file_id: target, from_version: 0, min_position: second.log_sequence });
      expect(since.body.changes.map((c: { version: number }) => c.version)).toEqual([1]);
      expect(sinceFresh.body.changes.map((c: { version: number }) => c.version)).toEqual([1, 2]);

      // The asynchronous read models: the replica's checkpoint is behind, and the answer says so.
      const search = await http.get('/v1/search', { query: 'three', min_position: second.log_sequence, max_wait_ms: 200 });
      expect(search.body.projection).toMatchObject({ min_position: second.log_sequence, min_position_reached: false });
    } finally {
      await standby.query('SELECT pg_wal_replay_resume()');
    }
    // Replay resumed: the replica catches up and answers the write itself.
    const third = await edit(2, 'four');
    expect((await attemptIds({ min_position: third.log_sequence }))[0]).toBe(third.attempt_id);
    const search = await http.get('/v1/search', { query: 'four', min_position: third.log_sequence });
    expect(search.body.projection).toMatchObject({ min_position_reached: true });
    expect(search.body.hits.map((h: { target_file_id: string }) => h.target_file_id)).toEqual([target]);
  }, 60_000);

  it('writes go to the primary: the replica refuses them, the gateway does not', async () => {
    await expect(standby.query(`INSERT INTO events (stream_id) VALUES ('x')`)).rejects.toThrow(/read-only transaction/);
    const r = await http.post(`/v1/targets/${target}/edits`, { intent: 'write', edits: [{ match: 'one', replace: 'ONE' }] }, { headers: { 'if-match': '"3"' } });
    expect(r.body).toMatchObject({ status: 'accepted', version: 4 });
  });

  it('a replica that is down leaves its reads to the primary', async () => {
    await standby.end().catch(() => undefined);
    cluster.standby.kill();
    // Commits would now wait for the synchronous standby: this test only reads.
    expect(await attemptIds()).toHaveLength(4); // every attempt, the last write's too: the primary's answer
    expect((await http.get('/v1/search', { query: 'four' })).body.hits).toHaveLength(1);
    expect((await http.get('/v1/changes', { target_file_id: target, from_version: 0 })).body.changes).toHaveLength(4);
  });

  it('a gateway started while the replica is down starts anyway, says so, and serves those reads from the primary', async () => {
    // The standby is gone for good: the operator lets the primary commit without it (a start writes).
    const admin = new pg.Client({ connectionString: cluster.primary.uri('postgres') });
    await admin.connect();
    await admin.query(`ALTER SYSTEM SET synchronous_standby_names = ''`);
    await admin.query('SELECT pg_reload_conf()');
    await admin.end();
    const late = await startApi(env, ['--no-local-token']);
    try {
      expect(late.stderr()).toMatch(/the read replica \(PALIMPSEST_READ_REPLICA_URL\) does not answer \(.+\): the primary serves search, activity, attempt logs, ledgers and history until it does/);
      const client = new HttpClient(late.url, token);
      expect(((await client.get(`/v1/targets/${target}/attempts`)).body.entries as unknown[]).length).toBe(4);
      expect((await client.get('/v1/search', { query: 'four' })).body.hits).toHaveLength(1);
    } finally {
      await late.stop();
    }
  });
});
