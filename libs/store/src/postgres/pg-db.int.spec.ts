import type { Db, ListenGap } from '../db';
import { eventually } from '../test-support/eventually';
import { startTcpProxy, type TcpProxy } from '../test-support/tcp-proxy';
import { asAdmin, databaseUrlOf, useTestDb } from '../test-support/test-db';
import { openPostgresDb, type PostgresDbOptions } from './pg-db';

/**
 * The PostgreSQL adapter under real faults: sessions terminated by the server, a network path that
 * goes silent (a stalled TCP relay), statements and transactions that outlive their bounds. Runs only
 * with DATABASE_URL (jest.config.js): PGlite has no connections to lose.
 */
describe('PostgreSQL adapter under faults', () => {
  const store = useTestDb();
  let url: string;
  const opened: Db[] = [];
  const errors: string[] = [];

  const open = async (options: Partial<PostgresDbOptions> = {}): Promise<Db> => {
    const db = await openPostgresDb({ connectionString: url, onError: (e) => errors.push(e.message), ...options });
    opened.push(db);
    return db;
  };
  const terminateIn = async (db: Db, applicationName: string) => {
    const { rows } = await db.query<{ name: string }>('SELECT current_database() AS name');
    return asAdmin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = $2`, [rows[0]!.name, applicationName]);
  };

  beforeAll(async () => {
    url = await databaseUrlOf(store.db);
    await store.db.exec(`CREATE TABLE fault_rows (id int PRIMARY KEY, v int NOT NULL DEFAULT 0); INSERT INTO fault_rows VALUES (1), (2);`);
  });

  afterEach(async () => {
    for (const db of opened.splice(0)) await db.close();
  });

  it('a statement the server refused has given back its row locks by the time it rejects', async () => {
    const db = await open({ poolMax: 4 });
    // The guard shape of the optimistic commit: lock a row, then refuse (palimpsest_expect raises).
    const refusing = `WITH locked AS MATERIALIZED (SELECT id FROM fault_rows WHERE id = $1 FOR UPDATE)
      SELECT palimpsest_expect(false, 'refused on purpose') FROM locked`;
    let lockStillHeld = 0;
    for (let i = 0; i < 300; i++) {
      await expect(db.query(refusing, [1])).rejects.toMatchObject({ code: '40001' });
      try {
        await db.query('SELECT id FROM fault_rows WHERE id = $1 FOR UPDATE NOWAIT', [1]);
      } catch (error) {
        if ((error as { code?: string }).code !== '55P03') throw error;
        lockStillHeld++;
      }
    }
    expect(lockStillHeld).toBe(0);
  });

  it('keeps a connection whose statement the server refused (no reconnect per refusal)', async () => {
    const db = await open({ poolMax: 1 });
    const pid = async () => (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const before = await pid();
    await expect(db.query('SELECT 1 / $1::int AS x', [0])).rejects.toMatchObject({ code: '22012' });
    expect(await pid()).toBe(before);
  });

  it('a session terminated under a statement or a transaction rejects it, and the process and the pool go on', async () => {
    const db = await open({ poolMax: 3 });
    const sleeping = db.query('SELECT pg_sleep(5)');
    const inTransaction = db.transaction(async (tx) => {
      await tx.query('UPDATE fault_rows SET v = v + 1 WHERE id = 2');
      await tx.query('SELECT pg_sleep(5)');
    });
    const database = new URL(url).pathname.slice(1);
    await eventually(
      () => asAdmin<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'SELECT pg_sleep(5)%' AND application_name = 'palimpsest'`, [database]),
      (rows) => rows[0]!.n === 2,
    );
    await terminateIn(db, 'palimpsest');
    await expect(sleeping).rejects.toThrow(/terminat/i);
    await expect(inTransaction).rejects.toThrow(/terminat/i);
    // A terminated session's transaction was undone; the next statements get working connections.
    expect((await db.query<{ v: number }>('SELECT v FROM fault_rows WHERE id = 2')).rows[0]!.v).toBe(0);
    await db.transaction(async (tx) => tx.query('SELECT 1'));
  });

  it('idle pooled connections that the server terminates are replaced, not fatal', async () => {
    const db = await open({ poolMax: 2 });
    await Promise.all([db.query('SELECT pg_sleep(0.05)'), db.query('SELECT pg_sleep(0.05)')]);
    await terminateIn(db, 'palimpsest');
    await eventually(async () => errors.length, (n) => n >= 1, { timeoutMs: 2_000 });
    expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).toBe(1);
  });

  describe('through a relay that goes silent', () => {
    let proxy: TcpProxy;
    let viaProxy: string;

    beforeEach(async () => {
      const target = new URL(url);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const u = new URL(url);
      u.host = `${proxy.host}:${proxy.port}`;
      viaProxy = u.toString();
    });

    afterEach(async () => {
      proxy.resume();
      await proxy.close();
    });

    it('fails statements, transactions and new connections within their bounds, then serves again', async () => {
      const timeouts = { connectTimeoutMs: 500, statementTimeoutMs: 300, queryTimeoutMs: 800 };
      const db = await open({ connectionString: viaProxy, poolMax: 2, timeouts });
      await db.query('SELECT 1');
      proxy.stall();
      const started = Date.now();
      const outcomes = await Promise.allSettled([
        db.query('SELECT 1'), // the pooled connection: its answer never comes
        db.transaction((tx) => tx.query('SELECT 1')), // a new connection: its handshake never completes
        db.query('SELECT 2'), // waits for a connection from a full pool
      ]);
      const elapsed = Date.now() - started;
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect(elapsed).toBeLessThan(3_000);
      proxy.resume();
      await proxy.cut(); // the stalled sockets are dead for the client: drop them
      await proxy.restore();
      const back = await eventually(
        () => db.query<{ one: number }>('SELECT 1 AS one').then((r) => r.rows[0]!.one, () => 0),
        (one) => one === 1,
        { timeoutMs: 5_000 },
      );
      expect(back).toBe(1);
    });

    it('the server cancels a statement past the statement timeout; the connection stays usable', async () => {
      const db = await open({ connectionString: viaProxy, poolMax: 1, timeouts: { statementTimeoutMs: 200, queryTimeoutMs: 2_000 } });
      await expect(db.query('SELECT pg_sleep(3)')).rejects.toMatchObject({ code: '57014' });
      expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).toBe(1);
    });
  });

  it('a transaction left idle gives its row locks back after the idle-in-transaction timeout', async () => {
    const db = await open({ poolMax: 2, timeouts: { idleInTransactionTimeoutMs: 300 } });
    const stuck = db.transaction(async (tx) => {
      await tx.query('SELECT id FROM fault_rows WHERE id = 1 FOR UPDATE');
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // a client that stopped talking
      await tx.query('SELECT 1');
    });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await store.db.query('SELECT id FROM fault_rows WHERE id = 1 FOR UPDATE NOWAIT')).rowCount).toBe(1);
    await expect(stuck).rejects.toThrow();
    expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).toBe(1);
  });

  it('tells listeners when delivery broke and when it is back, then delivers again', async () => {
    const db = await open();
    const gaps: ListenGap[] = [];
    const payloads: string[] = [];
    await db.listen('fault_channel', (p) => payloads.push(p), (gap) => gaps.push(gap));
    await terminateIn(db, 'palimpsest-listen');
    await eventually(async () => gaps.join(), (g) => g === 'lost,resumed', { timeoutMs: 5_000 });
    expect(gaps).toEqual(['lost', 'resumed']);
    await store.db.query(`SELECT pg_notify('fault_channel', 'after')`);
    await eventually(async () => payloads.join(), (p) => p === 'after', { timeoutMs: 2_000 });
    expect(payloads).toEqual(['after']);
  });

  it('notices a listener connection that went silent and resumes once the path is back', async () => {
    const target = new URL(url);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    try {
      const u = new URL(url);
      u.host = `${proxy.host}:${proxy.port}`;
      const db = await open({ connectionString: u.toString(), timeouts: { connectTimeoutMs: 500 } });
      const gaps: ListenGap[] = [];
      await db.listen('fault_silent', () => undefined, (gap) => gaps.push(gap));
      proxy.stall();
      await eventually(async () => gaps.join(), (g) => g === 'lost', { timeoutMs: 8_000 });
      expect(gaps).toEqual(['lost']);
      proxy.resume();
      await proxy.cut();
      await proxy.restore();
      await eventually(async () => gaps.join(), (g) => g === 'lost,resumed', { timeoutMs: 5_000 });
      expect(gaps).toEqual(['lost', 'resumed']);
    } finally {
      proxy.resume();
      await proxy.close();
    }
  }, 20_000);
});
