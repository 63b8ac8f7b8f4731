import { sql } from '@palimpsest/store/sql-fragment';
import { appendGuardedBatch, type GuardedAppendSpec } from '@palimpsest/store/append-guarded-batch';
import { readStream } from '@palimpsest/store/read-stream';
import { countingSql, sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { describeBackend, useTestDb } from '@palimpsest/store/test-support/test-db';

/**
 * Several guarded appends in one statement: every one commits with its alongside write, or none does
 * (a guard that refuses aborts the statement).
 */
describe(`appendGuardedBatch (${describeBackend})`, () => {
  const store = useTestDb();

  beforeAll(async () => {
    await store.db.exec('CREATE TABLE batch_rows (id text PRIMARY KEY, v bigint NOT NULL, writes integer NOT NULL DEFAULT 0)');
  });

  const rowsOf = async (ids: string[]) =>
    (await store.db.query('SELECT id, v, writes FROM batch_rows WHERE id = ANY($1::text[]) ORDER BY id', [ids])).rows;

  async function rows(count: number, v = 0) {
    const ids = Array.from({ length: count }, () => uniqueStreamId('row')).sort();
    for (const id of ids) await store.db.query('INSERT INTO batch_rows (id, v) VALUES ($1, $2)', [id, v]);
    return ids;
  }

  /** Append one event to `stream` at `expected`; alongside, bump the row; guard: the row still at `at`. */
  const guarded = (stream: string, id: string, expected: number, at: number): GuardedAppendSpec => ({
    streamId: stream,
    expectedVersion: expected,
    events: sampleEvents(1, expected + 1),
    alongside: () => [sql`UPDATE batch_rows SET v = ${expected + 1}, writes = writes + 1 WHERE id = ${id}`],
    guard: sql`SELECT 1 FROM batch_rows WHERE id = ${id} AND v = ${at} FOR UPDATE NOWAIT`,
  });

  it('commits every append and its alongside write in one statement, each answered with its own positions', async () => {
    const ids = await rows(3);
    const streams = ids.map(() => uniqueStreamId('batch'));
    const counting = countingSql(store.db);
    const results = await appendGuardedBatch(counting, ids.map((id, i) => guarded(streams[i]!, id, 0, 0)));
    expect(counting.count).toBe(1);
    expect(results.map((r) => r.nextExpectedVersion)).toEqual([1, 1, 1]);
    for (const [i, stream] of streams.entries()) {
      expect((await readStream(store.db, stream)).map((e) => e.globalPosition)).toEqual(results[i]!.positions);
    }
    expect(new Set(results.map((r) => r.positions[0])).size).toBe(3);
    expect(await rowsOf(ids)).toEqual(ids.map((id) => ({ id, v: 1, writes: 1 })));
  });

  it('numbers each append after the one before, whatever its parameter count', async () => {
    const [a, b, c] = await rows(3);
    const [sa, sb] = [uniqueStreamId('batch'), uniqueStreamId('batch')];
    const twoWrites: GuardedAppendSpec = {
      streamId: sa,
      expectedVersion: 0,
      events: sampleEvents(1),
      alongside: () => [sql`UPDATE batch_rows SET v = ${1}, writes = writes + 1 WHERE id = ${a}`, sql`UPDATE batch_rows SET writes = writes + ${10} WHERE id = ${c}`],
      guard: sql`SELECT 1 FROM batch_rows WHERE id = ${a} AND v = ${0} FOR UPDATE NOWAIT`,
    };
    const results = await appendGuardedBatch(store.db, [twoWrites, guarded(sb, b!, 0, 0)]);
    expect(results.map((r) => r.nextExpectedVersion)).toEqual([1, 1]);
    const byId = new Map((await rowsOf([a!, b!, c!])).map((r) => [r.id, { v: Number(r.v), writes: r.writes }]));
    expect([byId.get(a), byId.get(b), byId.get(c)]).toEqual([{ v: 1, writes: 1 }, { v: 1, writes: 1 }, { v: 0, writes: 10 }]);
  });

  it('writes nothing for any append when one guard refuses', async () => {
    const ids = await rows(3);
    const streams = ids.map(() => uniqueStreamId('batch'));
    const stale = ids.map((id, i) => guarded(streams[i]!, id, 0, i === 1 ? 7 : 0)); // the middle row is not at 7
    await expect(appendGuardedBatch(store.db, stale)).rejects.toMatchObject({ code: '40001' });
    for (const stream of streams) expect(await readStream(store.db, stream)).toEqual([]);
    expect(await rowsOf(ids)).toEqual(ids.map((id) => ({ id, v: 0, writes: 0 })));
  });

  it('refuses the same stream twice in one batch before sending anything', async () => {
    const [a, b] = await rows(2);
    const stream = uniqueStreamId('batch');
    const counting = countingSql(store.db);
    await expect(appendGuardedBatch(counting, [guarded(stream, a!, 0, 0), guarded(stream, b!, 1, 0)])).rejects.toThrow(/appears twice/);
    expect(counting.count).toBe(0);
  });
});
