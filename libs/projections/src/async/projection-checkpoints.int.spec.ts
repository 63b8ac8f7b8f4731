import { appendToStream } from '@palimpsest/store/append-to-stream';
import { sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { describeBackend, useTestDb } from '@palimpsest/store/test-support/test-db';
import { advanceCheckpoint, hasReached, loadCheckpoint, LOG_START, resetCheckpoint } from './projection-checkpoints';

describe(`projection checkpoints (${describeBackend})`, () => {
  const store = useTestDb();

  it('starts at the beginning, moves only compare-and-set, and resets', async () => {
    const { db } = store;
    const name = uniqueStreamId('cp');
    expect(await loadCheckpoint(db, name)).toMatchObject({ xid: '0', position: 0, eventsHandled: 0 });
    expect(await advanceCheckpoint(db, name, LOG_START, { xid: '700', position: 5 }, 5)).toBe(true);
    // A second instance advancing from the same place loses.
    expect(await advanceCheckpoint(db, name, LOG_START, { xid: '701', position: 6 }, 1)).toBe(false);
    expect(await loadCheckpoint(db, name)).toMatchObject({ xid: '700', position: 5, eventsHandled: 5 });
    await resetCheckpoint(db, name);
    expect(await loadCheckpoint(db, name)).toMatchObject({ xid: '0', position: 0, eventsHandled: 0 });
  });

  it('has reached a position once the event there is at or below the checkpoint in commit order', async () => {
    const { db } = store;
    const name = uniqueStreamId('cp');
    await loadCheckpoint(db, name);
    const stream = uniqueStreamId();
    await appendToStream(db, stream, 0, sampleEvents(2));
    const { rows } = await db.query<{ p: number; x: string }>(
      `SELECT global_position AS p, transaction_xid::text AS x FROM events WHERE stream_id = $1 ORDER BY 1`, [stream]);
    const [first, second] = rows.map((r) => ({ position: Number(r.p), xid: r.x }));
    expect(await hasReached(db, name, first!.position)).toBe(false);
    await advanceCheckpoint(db, name, LOG_START, first!, 1);
    expect(await hasReached(db, name, first!.position)).toBe(true);
    expect(await hasReached(db, name, second!.position)).toBe(false);
    expect(await hasReached(db, uniqueStreamId('none'), first!.position)).toBe(false);
  });
});
