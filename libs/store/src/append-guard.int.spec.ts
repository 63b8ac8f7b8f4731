import { sql } from './sql-fragment';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import { EVENTS_CHANNEL } from '@palimpsest/store/events-channel';
import { StreamVersionConflictError } from '@palimpsest/store/errors';
import { readStream } from '@palimpsest/store/read-stream';
import { sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { describeBackend, useTestDb } from '@palimpsest/store/test-support/test-db';

/**
 * The optimistic append: one statement outside any transaction block whose guard locks a row and
 * must find it unchanged, or the whole statement (events and alongside writes) is undone.
 */
describe(`appendToStream with a guard (${describeBackend})`, () => {
  const store = useTestDb();

  beforeAll(async () => {
    await store.db.exec('CREATE TABLE guard_rows (id text PRIMARY KEY, v bigint NOT NULL, writes integer NOT NULL DEFAULT 0)');
  });

  const rowOf = async (id: string) => (await store.db.query('SELECT v, writes FROM guard_rows WHERE id = $1', [id])).rows[0];

  /** Alongside: bump the row to the stream's new version; guard: the row still at `at` (numbered where the store places them). */
  async function guardedAppend(stream: string, id: string, expected: number, at: number) {
    return appendToStream(store.db, stream, expected, sampleEvents(1, expected + 1), {
      notifyChannel: null,
      alongside: () => [sql`UPDATE guard_rows SET v = ${expected + 1}, writes = writes + 1 WHERE id = ${id}`],
      guard: sql`SELECT 1 FROM guard_rows WHERE id = ${id} AND v = ${at} FOR UPDATE NOWAIT`,
    });
  }

  it('appends and writes alongside when the guarded row is as decided', async () => {
    const [stream, id] = [uniqueStreamId('guard'), uniqueStreamId('row')];
    await store.db.query('INSERT INTO guard_rows (id, v) VALUES ($1, 0)', [id]);
    expect((await guardedAppend(stream, id, 0, 0)).nextExpectedVersion).toBe(1);
    expect((await guardedAppend(stream, id, 1, 1)).nextExpectedVersion).toBe(2);
    expect(await rowOf(id)).toEqual({ v: 2, writes: 2 });
    expect((await readStream(store.db, stream)).map((e) => e.streamVersion)).toEqual([1, 2]);
  });

  it('writes nothing at all when the guarded row moved or is missing', async () => {
    const [stream, id] = [uniqueStreamId('guard'), uniqueStreamId('row')];
    await store.db.query('INSERT INTO guard_rows (id, v) VALUES ($1, 5)', [id]);
    await expect(guardedAppend(stream, id, 0, 4)).rejects.toBeInstanceOf(StreamVersionConflictError);
    await expect(guardedAppend(stream, uniqueStreamId('absent'), 0, 5)).rejects.toBeInstanceOf(StreamVersionConflictError);
    expect(await rowOf(id)).toEqual({ v: 5, writes: 0 });
    expect(await readStream(store.db, stream)).toEqual([]);
  });

  it('writes nothing when the stream is not at the expected version, even with the row as decided', async () => {
    const [stream, id] = [uniqueStreamId('guard'), uniqueStreamId('row')];
    await store.db.query('INSERT INTO guard_rows (id, v) VALUES ($1, 0)', [id]);
    await appendToStream(store.db, stream, 0, sampleEvents(1));
    await expect(guardedAppend(stream, id, 0, 0)).rejects.toBeInstanceOf(StreamVersionConflictError);
    expect(await rowOf(id)).toEqual({ v: 0, writes: 0 });
    expect(await readStream(store.db, stream)).toHaveLength(1);
  });

  it('with notifyChannel null the commit sends no notification of its own', async () => {
    const received: string[] = [];
    const stop = await store.db.listen(EVENTS_CHANNEL, (payload) => received.push(payload));
    try {
      const stream = uniqueStreamId('quiet');
      await appendToStream(store.db, stream, 0, sampleEvents(2), { notifyChannel: null });
      await appendToStream(store.db, stream, 2, sampleEvents(1)); // the default still notifies, after it
      await new Promise((resolve) => setTimeout(resolve, store.db.kind === 'postgres' ? 300 : 50));
      expect(received.map((p) => JSON.parse(p).stream_version)).toEqual([3]);
    } finally {
      await stop();
    }
  });
});
