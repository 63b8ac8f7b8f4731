import { appendToStream } from '@palimpsest/store/append-to-stream';
import { currentStreamVersion } from '@palimpsest/store/stream-version';
import { sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { describeBackend, useTestDb } from '@palimpsest/store/test-support/test-db';

describe(`currentStreamVersion (${describeBackend})`, () => {
  const store = useTestDb();

  it('is 0 for a stream without events', async () => {
    expect(await currentStreamVersion(store.db, uniqueStreamId())).toBe(0);
  });

  it('is the last version, as a number, and ignores other streams', async () => {
    const stream = uniqueStreamId();
    await appendToStream(store.db, stream, 0, sampleEvents(4));
    await appendToStream(store.db, uniqueStreamId(), 0, sampleEvents(9));
    expect(await currentStreamVersion(store.db, stream)).toBe(4);
    await appendToStream(store.db, stream, 4, sampleEvents(1));
    expect(await currentStreamVersion(store.db, stream)).toBe(5);
  });

  it('counts the transaction’s own uncommitted appends when given the transaction', async () => {
    const stream = uniqueStreamId();
    await store.db.transaction(async (tx) => {
      await appendToStream(tx, stream, 0, sampleEvents(2));
      expect(await currentStreamVersion(tx, stream)).toBe(2);
    });
  });
});
