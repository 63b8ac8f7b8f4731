import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Db } from '@palimpsest/store/db';
import { readStream } from '@palimpsest/store/read-stream';
import { streamExists, streamStarts, versionAtPosition } from '@palimpsest/store/stream-lookups';
import { sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';

describe(`stream lookups (${describeBackend})`, () => {
  let testDb: TestDb;
  let db: Db;
  const prefix = uniqueStreamId('lookup');
  const first = `${prefix}-a`;
  const second = `${prefix}-b`;

  beforeAll(async () => {
    testDb = await createTestDb();
    db = testDb.db;
    await appendToStream(db, first, 0, sampleEvents(2));
    await appendToStream(db, second, 0, sampleEvents(1));
    await appendToStream(db, first, 2, sampleEvents(2, 3));
  });
  afterAll(() => testDb.dispose());

  it('says whether a stream exists', async () => {
    expect(await streamExists(db, first)).toBe(true);
    expect(await streamExists(db, `${prefix}-none`)).toBe(false);
  });

  it('gives the version a stream had at a global position (0 before its first event)', async () => {
    const events = await readStream(db, first);
    expect(await versionAtPosition(db, first, 0)).toBe(0);
    expect(await versionAtPosition(db, first, events[0]!.globalPosition - 1)).toBe(0);
    expect(await versionAtPosition(db, first, events[1]!.globalPosition)).toBe(2);
    expect(await versionAtPosition(db, first, events[3]!.globalPosition)).toBe(4);
  });

  it('lists the streams of a prefix by their first event, a page after a position at a time', async () => {
    const all = await streamStarts(db, { prefix, after: 0, limit: 10 });
    expect(all.map((s) => s.streamId)).toEqual([first, second]);
    const [a] = await readStream(db, first, { limit: 1 });
    expect(all[0]!.globalPosition).toBe(a!.globalPosition);
    expect(await streamStarts(db, { prefix, after: 0, limit: 1 })).toEqual([all[0]]);
    expect(await streamStarts(db, { prefix, after: all[0]!.globalPosition, limit: 10 })).toEqual([all[1]]);
  });
});
