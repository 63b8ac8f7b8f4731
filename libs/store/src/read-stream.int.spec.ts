import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Db } from '@palimpsest/store/db';
import { readStream, streamPages } from '@palimpsest/store/read-stream';
import { sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';

describe(`readStream (${describeBackend})`, () => {
  let testDb: TestDb;
  let db: Db;
  const stream = uniqueStreamId('read');
  const neighbour = uniqueStreamId('neighbour');

  beforeAll(async () => {
    testDb = await createTestDb();
    db = testDb.db;
    // Interleave two streams so that stream order and global order differ from insertion batches.
    await appendToStream(db, stream, 0, sampleEvents(3));
    await appendToStream(db, neighbour, 0, sampleEvents(2, 100));
    await appendToStream(db, stream, 3, sampleEvents(4, 4));
  });
  afterAll(() => testDb.dispose());

  it('returns one stream in version order, and nothing from other streams', async () => {
    const events = await readStream(db, stream);
    expect(events.map((e) => e.streamVersion)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(events.every((e) => e.streamId === stream)).toBe(true);
    expect(events.map((e) => e.data.n)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('streams the same events a page at a time, whatever the page size', async () => {
    const all = await readStream(db, stream);
    for (const size of [1, 2, 3, 7, 8, 500]) {
      const pages = [];
      for await (const page of streamPages(db, stream, size)) pages.push(page);
      expect(pages.flat()).toEqual(all);
      expect(pages.every((p) => p.length > 0 && p.length <= size)).toBe(true);
    }
    const none = [];
    for await (const page of streamPages(db, uniqueStreamId('empty'), 2)) none.push(page);
    expect(none).toEqual([]);
  });

  it('returns the StoredEvent shape with numbers and ISO strings on every backend', async () => {
    const [first] = await readStream(db, stream, { limit: 1 });
    expect(first).toEqual({
      globalPosition: expect.any(Number),
      streamId: stream,
      streamVersion: 1,
      type: 'SampleHappened',
      schemaVersion: 1,
      data: { n: 1 },
      metadata: {},
      recordedAt: '2024-01-01T00:00:01.001Z',
      transactionXid: expect.stringMatching(/^\d+$/),
    });
  });

  it('honours fromVersion, toVersion (both inclusive) and limit', async () => {
    const versions = async (opts: Parameters<typeof readStream>[2]) =>
      (await readStream(db, stream, opts)).map((e) => e.streamVersion);
    expect(await versions({ fromVersion: 3 })).toEqual([3, 4, 5, 6, 7]);
    expect(await versions({ toVersion: 2 })).toEqual([1, 2]);
    expect(await versions({ fromVersion: 2, toVersion: 5 })).toEqual([2, 3, 4, 5]);
    expect(await versions({ fromVersion: 2, limit: 2 })).toEqual([2, 3]);
    expect(await versions({ fromVersion: 8 })).toEqual([]);
    expect(await versions({ fromVersion: 5, toVersion: 4 })).toEqual([]);
  });

  it('returns [] for a stream that does not exist', async () => {
    expect(await readStream(db, uniqueStreamId('missing'))).toEqual([]);
  });

  it('sees the transaction’s own appends inside it, and nothing of them after a rollback', async () => {
    const fresh = uniqueStreamId('tx');
    await expect(
      db.transaction(async (tx) => {
        await appendToStream(tx, fresh, 0, sampleEvents(2));
        expect((await readStream(tx, fresh)).map((e) => e.streamVersion)).toEqual([1, 2]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await readStream(db, fresh)).toEqual([]);
  });
});
