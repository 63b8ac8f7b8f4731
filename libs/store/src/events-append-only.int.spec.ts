import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Db } from '@palimpsest/store/db';
import { readStream } from '@palimpsest/store/read-stream';
import { sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';

/** migrations/0001_events.sql: the table itself refuses to forget or rewrite history. */
describe(`the events table (${describeBackend})`, () => {
  let testDb: TestDb;
  let db: Db;
  const stream = uniqueStreamId('immutable');

  beforeAll(async () => {
    testDb = await createTestDb();
    db = testDb.db;
    await appendToStream(db, stream, 0, sampleEvents(2));
  });
  afterAll(() => testDb.dispose());

  it.each([
    ['UPDATE', `UPDATE events SET data = '{"n": 0}' WHERE stream_id = $1`],
    ['DELETE', 'DELETE FROM events WHERE stream_id = $1'],
  ])('refuses %s', async (operation, sql) => {
    await expect(db.query(sql, [stream])).rejects.toMatchObject({
      code: '23001',
      message: expect.stringContaining(`events are append-only: ${operation}`),
    });
    expect((await readStream(db, stream)).map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('refuses UPDATE and DELETE even when they match no row', async () => {
    await expect(db.query('DELETE FROM events WHERE false')).rejects.toMatchObject({ code: '23001' });
    await expect(db.query('UPDATE events SET event_type = event_type WHERE false')).rejects.toMatchObject({ code: '23001' });
  });

  it('assigns global_position itself and refuses a chosen one', async () => {
    await expect(
      db.query(
        `INSERT INTO events (global_position, stream_id, stream_version, event_type, schema_version, data, recorded_at)
         VALUES (1000000, 'x', 1, 'T', 1, '{}', now())`,
      ),
    ).rejects.toMatchObject({ code: '428C9' });
  });

  it('refuses stream versions below 1 and metadata that is not an object', async () => {
    const insert = (version: number, metadata: string) =>
      db.query(
        `INSERT INTO events (stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at)
         VALUES ($1, $2, 'T', 1, '{}', $3::jsonb, now())`,
        [uniqueStreamId(), version, metadata],
      );
    await expect(insert(0, '{}')).rejects.toMatchObject({ code: '23514' });
    await expect(insert(1, '[]')).rejects.toMatchObject({ code: '23514' });
  });

  it('records the appending transaction’s xid by default', async () => {
    const xid = await db.transaction(async (tx) => {
      await appendToStream(tx, uniqueStreamId(), 0, sampleEvents(1));
      const { rows } = await tx.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
      return rows[0]!.xid;
    });
    const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM events WHERE transaction_xid = $1::text::xid8', [xid]);
    expect(rows[0]!.n).toBe(1);
  });
});
