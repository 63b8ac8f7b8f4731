import { describeBackend, useTestDb } from '@palimpsest/store/test-support/test-db';

describe(`Db (${describeBackend})`, () => {
  const store = useTestDb();

  it('reports the backend the environment selected', () => {
    expect(store.db.kind).toBe(describeBackend);
  });

  it('returns int8 and int8[] as numbers, and refuses int8 values that are not safe integers', async () => {
    const { rows, rowCount } = await store.db.query(
      `SELECT 9007199254740991::int8 AS big, count(*) AS n, ARRAY[1, 2]::int8[] AS list, 7::int4 AS small FROM (VALUES (1)) v`,
    );
    expect(rowCount).toBe(1);
    expect(rows[0]).toEqual({ big: 9007199254740991, n: 1, list: [1, 2], small: 7 });
    await expect(store.db.query('SELECT 9007199254740993::int8 AS too_big')).rejects.toThrow(/not a safe JavaScript integer/);
    // The connection is still usable after a refused value.
    expect((await store.db.query('SELECT 1::int8 AS one')).rows[0].one).toBe(1);
  });

  it('returns timestamptz as a Date and jsonb parsed, on both backends', async () => {
    const { rows } = await store.db.query(`SELECT '2024-01-02T03:04:05.678Z'::timestamptz AS at, '{"a":[1,"x"]}'::jsonb AS j`);
    expect(rows[0].at).toBeInstanceOf(Date);
    expect((rows[0].at as Date).toISOString()).toBe('2024-01-02T03:04:05.678Z');
    expect(rows[0].j).toEqual({ a: [1, 'x'] });
  });

  it('counts affected rows in rowCount', async () => {
    await store.db.exec('CREATE TABLE rc (id int PRIMARY KEY); INSERT INTO rc VALUES (1), (2), (3);');
    expect((await store.db.query('UPDATE rc SET id = id + 10 WHERE id < 3')).rowCount).toBe(2);
  });

  it('commits a transaction and returns its value; runs it READ COMMITTED', async () => {
    await store.db.exec('CREATE TABLE tx_commit (v text)');
    const result = await store.db.transaction(async (tx) => {
      await tx.query('INSERT INTO tx_commit VALUES ($1)', ['kept']);
      return (await tx.query('SHOW transaction_isolation')).rows[0].transaction_isolation;
    });
    expect(result).toBe('read committed');
    expect((await store.db.query('SELECT v FROM tx_commit')).rows).toEqual([{ v: 'kept' }]);
  });

  it('rolls back when the callback throws and rethrows the same error', async () => {
    await store.db.exec('CREATE TABLE tx_rollback (v text)');
    const boom = new Error('boom');
    await expect(
      store.db.transaction(async (tx) => {
        await tx.query('INSERT INTO tx_rollback VALUES ($1)', ['gone']);
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect((await store.db.query('SELECT count(*) AS n FROM tx_rollback')).rows[0].n).toBe(0);
    // …and the backend is healthy afterwards (on postgres the client went back to the pool clean).
    await store.db.transaction((tx) => tx.query('INSERT INTO tx_rollback VALUES ($1)', ['after']));
    expect((await store.db.query('SELECT v FROM tx_rollback')).rows).toEqual([{ v: 'after' }]);
  });

  it('rolls back after a failed statement and surfaces the database error', async () => {
    await expect(store.db.transaction((tx) => tx.query('SELECT * FROM no_such_table'))).rejects.toMatchObject({ code: '42P01' });
    expect((await store.db.query('SELECT 1 AS ok')).rows[0].ok).toBe(1);
  });

  it('refuses the Db inside its own transaction callback instead of deadlocking', async () => {
    await expect(store.db.transaction(() => store.db.query('SELECT 1'))).rejects.toThrow(/inside db\.transaction\(\)/);
    await expect(store.db.transaction(() => store.db.transaction(async () => 1))).rejects.toThrow(/inside db\.transaction\(\)/);
    expect((await store.db.query('SELECT 2 AS two')).rows[0].two).toBe(2);
  });

  it('refuses a transaction handle used after its transaction ended', async () => {
    const leaked = await store.db.transaction(async (tx) => tx);
    await expect(leaked.query('SELECT 1')).rejects.toThrow(/after its transaction ended/);
  });

  it('runs multi-statement scripts with exec, also inside a transaction', async () => {
    await store.db.transaction((tx) => tx.exec('CREATE TABLE ex1 (v int); INSERT INTO ex1 VALUES (1); INSERT INTO ex1 VALUES (2);'));
    expect((await store.db.query('SELECT sum(v) AS s FROM ex1')).rows[0].s).toBe(3);
  });

  it('lets independent callers run transactions concurrently without interfering', async () => {
    await store.db.exec('CREATE TABLE conc (worker int, i int)');
    await Promise.all(
      Array.from({ length: 5 }, (_, worker) =>
        store.db.transaction(async (tx) => {
          for (let i = 0; i < 3; i++) await tx.query('INSERT INTO conc VALUES ($1, $2)', [worker, i]);
        }),
      ),
    );
    expect((await store.db.query('SELECT count(*) AS n FROM conc')).rows[0].n).toBe(15);
  });

  it('holds a session: its session-level state lasts until release, after which it refuses statements', async () => {
    const session = await store.db.session();
    await session.query('SELECT pg_advisory_lock(424242)');
    const mine = await session.query<{ n: number }>(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = 424242 AND pid = pg_backend_pid()`);
    expect(mine.rows[0]!.n).toBe(1);
    await session.query('SELECT pg_advisory_unlock(424242)');
    await session.release();
    await session.release();
    await expect(session.query('SELECT 1')).rejects.toThrow(/released/);
    await expect(store.db.transaction(() => store.db.session())).rejects.toThrow(/inside db\.transaction\(\)/);
  });
});
