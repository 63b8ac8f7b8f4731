import { appendToStream } from '@palimpsest/store/append-to-stream';
import { StreamVersionConflictError } from '@palimpsest/store/errors';
import { readStream } from '@palimpsest/store/read-stream';
import { currentStreamVersion } from '@palimpsest/store/stream-version';
import { deferred } from '@palimpsest/store/test-support/eventually';
import { countingSql, sampleEvent, sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { describeBackend, useTestDb } from '@palimpsest/store/test-support/test-db';

describe(`appendToStream (${describeBackend})`, () => {
  const store = useTestDb();

  it('numbers a new stream from 1 and continues contiguously, positions increasing with versions', async () => {
    const stream = uniqueStreamId();
    const first = await appendToStream(store.db, stream, 0, sampleEvents(3));
    expect(first.nextExpectedVersion).toBe(3);
    const second = await appendToStream(store.db, stream, 3, sampleEvents(2, 4));
    expect(second.nextExpectedVersion).toBe(5);

    const positions = [...first.positions, ...second.positions];
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(new Set(positions).size).toBe(5);
    const stored = await readStream(store.db, stream);
    expect(stored.map((e) => e.streamVersion)).toEqual([1, 2, 3, 4, 5]);
    expect(stored.map((e) => e.globalPosition)).toEqual(positions);
    expect(stored.map((e) => e.data)).toEqual([1, 2, 3, 4, 5].map((n) => ({ n })));
  });

  it('stores type, schema version, data, metadata and recordedAt as given', async () => {
    const stream = uniqueStreamId();
    const data = { text: 'naïve 😀 "quoted" \\ back\nslash', nested: { list: [1, null, true] }, empty: {} };
    await appendToStream(store.db, stream, 0, [
      { type: 'TargetInitialized', schemaVersion: 3, data, metadata: { correlationId: 'c-1' }, recordedAt: '2024-05-01T12:34:56.789Z' },
      { type: 'NoMetadata', schemaVersion: 1, data: 'a string', recordedAt: '2024-05-01T14:00:00.000+02:00' },
    ]);
    const [a, b] = await readStream(store.db, stream);
    expect(a).toMatchObject({ type: 'TargetInitialized', schemaVersion: 3, data, metadata: { correlationId: 'c-1' }, recordedAt: '2024-05-01T12:34:56.789Z' });
    expect(b).toMatchObject({ type: 'NoMetadata', data: 'a string', metadata: {}, recordedAt: '2024-05-01T12:00:00.000Z' });
  });

  it('is one round trip whatever the number of events', async () => {
    const stream = uniqueStreamId();
    await store.db.transaction(async (tx) => {
      const counted = countingSql(tx);
      await appendToStream(counted, stream, 0, sampleEvents(50));
      expect(counted.count).toBe(1);
      await appendToStream(counted, stream, 50, sampleEvents(1, 51));
      expect(counted.count).toBe(2);
    });
    expect(await currentStreamVersion(store.db, stream)).toBe(51);
  });

  it('appends nothing and sends nothing for an empty batch', async () => {
    const counted = countingSql(store.db);
    expect(await appendToStream(counted, uniqueStreamId(), 4, [])).toEqual({ positions: [], nextExpectedVersion: 4 });
    expect(counted.count).toBe(0);
  });

  it('refuses a negative or fractional expectedVersion before touching the database', async () => {
    await expect(appendToStream(store.db, uniqueStreamId(), -1, sampleEvents(1))).rejects.toThrow(RangeError);
    await expect(appendToStream(store.db, uniqueStreamId(), 1.5, sampleEvents(1))).rejects.toThrow(RangeError);
  });

  it('throws StreamVersionConflictError when the version is already taken', async () => {
    const stream = uniqueStreamId();
    await appendToStream(store.db, stream, 0, sampleEvents(2));
    const attempt = appendToStream(store.db, stream, 0, sampleEvents(1));
    await expect(attempt).rejects.toBeInstanceOf(StreamVersionConflictError);
    await expect(attempt).rejects.toMatchObject({ streamId: stream, expectedVersion: 0 });
    await expect(appendToStream(store.db, stream, 1, sampleEvents(1))).rejects.toBeInstanceOf(StreamVersionConflictError);
    expect(await currentStreamVersion(store.db, stream)).toBe(2);
  });

  it('throws StreamVersionConflictError when expectedVersion is ahead of the stream (no gaps)', async () => {
    const stream = uniqueStreamId();
    await expect(appendToStream(store.db, stream, 3, sampleEvents(1))).rejects.toBeInstanceOf(StreamVersionConflictError);
    await appendToStream(store.db, stream, 0, sampleEvents(1));
    await expect(appendToStream(store.db, stream, 2, sampleEvents(1))).rejects.toBeInstanceOf(StreamVersionConflictError);
    expect((await readStream(store.db, stream)).map((e) => e.streamVersion)).toEqual([1]);
  });

  it('rolls back with the transaction: a conflict inside a transaction leaves nothing behind', async () => {
    const stream = uniqueStreamId();
    await appendToStream(store.db, stream, 0, sampleEvents(1));
    const other = uniqueStreamId();
    await expect(
      store.db.transaction(async (tx) => {
        await appendToStream(tx, other, 0, sampleEvents(1));
        await appendToStream(tx, stream, 0, sampleEvents(1)); // conflicts
      }),
    ).rejects.toBeInstanceOf(StreamVersionConflictError);
    expect(await currentStreamVersion(store.db, other)).toBe(0);
  });

  it('lets exactly one of several writers expecting the same version win', async () => {
    const stream = uniqueStreamId();
    await appendToStream(store.db, stream, 0, sampleEvents(1));
    const writers = 6;
    if (store.db.kind === 'postgres') {
      // Real concurrency: every writer reads version 1 in its own transaction, then all append at once.
      const allRead = deferred();
      let read = 0;
      const outcomes = await Promise.allSettled(
        Array.from({ length: writers }, (_, i) =>
          store.db.transaction(async (tx) => {
            const version = await currentStreamVersion(tx, stream);
            if (++read === writers) allRead.resolve();
            await allRead.promise;
            return appendToStream(tx, stream, version, [sampleEvent(100 + i)]);
          }),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const losers = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(losers).toHaveLength(writers - 1);
      for (const loser of losers) expect(loser.reason).toBeInstanceOf(StreamVersionConflictError);
    } else {
      // PGlite has one connection and runs transactions one after another, so writers cannot
      // overlap; writers that all decided on version 1 still get exactly one winner.
      const outcomes = await Promise.allSettled(
        Array.from({ length: writers }, (_, i) => store.db.transaction((tx) => appendToStream(tx, stream, 1, [sampleEvent(100 + i)]))),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(StreamVersionConflictError);
    }
    expect((await readStream(store.db, stream)).map((e) => e.streamVersion)).toEqual([1, 2]);
  });

  it('keeps versions contiguous under retrying concurrent writers', async () => {
    const stream = uniqueStreamId();
    const writers = 5;
    const perWriter = 6;
    let conflicts = 0;
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; i < perWriter; i++) {
          for (;;) {
            try {
              await store.db.transaction(async (tx) => {
                const version = await currentStreamVersion(tx, stream);
                await appendToStream(tx, stream, version, [sampleEvent(w * 100 + i)]);
              });
              break;
            } catch (error) {
              if (!(error instanceof StreamVersionConflictError)) throw error;
              conflicts++;
            }
          }
        }
      }),
    );
    const stored = await readStream(store.db, stream);
    expect(stored.map((e) => e.streamVersion)).toEqual(Array.from({ length: writers * perWriter }, (_, i) => i + 1));
    expect(new Set(stored.map((e) => (e.data as { n: number }).n)).size).toBe(writers * perWriter);
    if (store.db.kind === 'pglite') expect(conflicts).toBe(0); // transactions never overlap in one PGlite
  });
});
