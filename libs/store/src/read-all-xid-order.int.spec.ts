import { checkpointOf, readAll, type ReadAllCheckpoint } from '@palimpsest/store/read-all';
import type { StoredEvent } from '@palimpsest/store/stored-event';
import { uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { describeBackend, useTestDb } from '@palimpsest/store/test-support/test-db';

/**
 * readAll orders by the xid8 column, not by the text it selects: '100' sorts before '99' as text, so a
 * page ordered that way would checkpoint past the events of xid 9999 and never read them. Rows with such
 * transaction ids are written directly, below any snapshot's xmin (a fresh database's own xids have one length), in a file of their
 * own: their made-up chain links are nobody else's business.
 */
describe(`readAll across a transaction id's digit boundary (${describeBackend})`, () => {
  const store = useTestDb();

  const insert = (streamId: string, version: number, xid: string) =>
    store.db.query(
      `INSERT INTO events (stream_id, stream_version, event_type, schema_version, data, transaction_xid, recorded_at, chain_hash)
       VALUES ($1, $2, 'SampleHappened', 1, '{}', $3::text::xid8, now(), decode(repeat('00', 32), 'hex'))`,
      [streamId, version, xid],
    );

  it('reads xid 99 before xid 100, each once, page by page', async () => {
    const stream = uniqueStreamId('digits');
    await insert(stream, 1, '98');
    await insert(stream, 2, '99');
    await insert(stream, 3, '100');
    await insert(stream, 4, '101');
    const seen: StoredEvent[] = [];
    let after: ReadAllCheckpoint | null = null;
    for (let page = await readAll(store.db, { after, limit: 1 }); page.length > 0; page = await readAll(store.db, { after, limit: 1 })) {
      seen.push(...page);
      after = checkpointOf(page[page.length - 1]!);
    }
    const mine = seen.filter((e) => e.streamId === stream);
    expect(mine.map((e) => [e.transactionXid, e.streamVersion])).toEqual([['98', 1], ['99', 2], ['100', 3], ['101', 4]]);
    expect(new Set(seen.map((e) => e.globalPosition)).size).toBe(seen.length);
  });
});
