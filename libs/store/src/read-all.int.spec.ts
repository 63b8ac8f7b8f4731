import { appendToStream } from '@palimpsest/store/append-to-stream';
import { checkpointOf, readAll, type LogSource, type ReadAllCheckpoint } from '@palimpsest/store/read-all';
import type { StoredEvent } from '@palimpsest/store/stored-event';
import { deferred, eventually } from '@palimpsest/store/test-support/eventually';
import { sampleEvent, sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { describeBackend, useTestDb } from '@palimpsest/store/test-support/test-db';

/**
 * On PostgreSQL, the snapshot xmin that gates readAll is cluster-wide: a write transaction of
 * another test file (another database on the same server) can hold events back for a moment.
 * So "these events appear" is polled (eventually); "these events are withheld" is asserted at once.
 */

/** Reads everything currently readable after `after`, page by page, like a consumer would. */
async function drain(sql: LogSource, after: ReadAllCheckpoint | null, limit = 3): Promise<{ events: StoredEvent[]; checkpoint: ReadAllCheckpoint | null }> {
  const events: StoredEvent[] = [];
  let checkpoint = after;
  for (;;) {
    const page = await readAll(sql, { after: checkpoint, limit });
    if (page.length === 0) return { events, checkpoint };
    events.push(...page);
    checkpoint = checkpointOf(page[page.length - 1]!);
  }
}

const key = (e: StoredEvent): [bigint, number] => [BigInt(e.transactionXid), e.globalPosition];
function expectStrictlyIncreasing(events: StoredEvent[]): void {
  for (let i = 1; i < events.length; i++) {
    const [px, pp] = key(events[i - 1]!);
    const [x, p] = key(events[i]!);
    expect(x > px || (x === px && p > pp)).toBe(true);
  }
}

describe(`readAll (${describeBackend})`, () => {
  const store = useTestDb();

  /** Where a consumer starting now would stand: after every event committed so far. */
  const now = async () => {
    const { rows } = await store.db.query<{ n: number }>('SELECT count(*) AS n FROM events');
    return (await eventually(() => drain(store.db, null, 100), (r) => r.events.length === rows[0]!.n)).checkpoint;
  };

  it('returns committed events in (transaction, position) order, each exactly once across pages', async () => {
    const start = await now();
    const a = uniqueStreamId('a');
    const b = uniqueStreamId('b');
    await store.db.transaction((tx) => appendToStream(tx, a, 0, sampleEvents(3)));
    await store.db.transaction(async (tx) => {
      await appendToStream(tx, b, 0, sampleEvents(2));
      await appendToStream(tx, a, 3, sampleEvents(1, 4));
    });
    const { events, checkpoint } = await eventually(() => drain(store.db, start, 2), (r) => r.events.length === 6);
    expect(events.map((e) => `${e.streamId === a ? 'a' : 'b'}${e.streamVersion}`)).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'a4']);
    expectStrictlyIncreasing(events);
    expect(new Set(events.map((e) => e.transactionXid)).size).toBe(2);
    expect((await drain(store.db, checkpoint)).events).toEqual([]);
  });

  it('withholds a transaction’s events until it commits, even from the transaction itself', async () => {
    const start = await now();
    const stream = uniqueStreamId('own');
    await store.db.transaction(async (tx) => {
      await appendToStream(tx, stream, 0, sampleEvents(2));
      expect(await readAll({ query: (text, params) => tx.query(text, params), kind: store.db.kind }, { after: start, limit: 10 })).toEqual([]);
    });
    const { events } = await eventually(() => drain(store.db, start), (r) => r.events.length === 2);
    expect(events.map((e) => e.streamVersion)).toEqual([1, 2]);
  });

  it('never returns the events of a rolled-back transaction', async () => {
    const start = await now();
    const stream = uniqueStreamId('rolled-back');
    await expect(
      store.db.transaction(async (tx) => {
        await appendToStream(tx, stream, 0, sampleEvents(2));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await store.db.transaction((tx) => appendToStream(tx, uniqueStreamId('after'), 0, sampleEvents(1)));
    const { events } = await eventually(() => drain(store.db, start), (r) => r.events.length === 1);
    expect(events.some((e) => e.streamId === stream)).toBe(false);
  });

  it('carries each event\'s chain link when asked, as the events table holds it', async () => {
    const stream = uniqueStreamId('chained');
    await appendToStream(store.db, stream, 0, sampleEvents(2));
    const page = await eventually(() => readAll(store.db, { limit: 10_000, withChain: true }), (read) => read.filter((e) => e.streamId === stream).length === 2, { timeoutMs: 60_000 });
    const { rows } = await store.db.query<{ p: number; link: string }>(`SELECT global_position AS p, encode(chain_hash, 'hex') AS link FROM events WHERE stream_id = $1`, [stream]);
    const mine = page.filter((e) => e.streamId === stream);
    expect(mine.map((e) => e.chainHash)).toEqual(rows.sort((a, b) => a.p - b.p).map((r) => r.link));
    expect((await readAll(store.db, { limit: 10_000 })).some((e) => 'chainHash' in e)).toBe(false);
  });

  it('refuses a limit that is not a positive integer', async () => {
    await expect(readAll(store.db, { limit: 0 })).rejects.toThrow(RangeError);
  });

  it('does not skip an event committed out of order (needs two connections)', async () => {
    const start = await now();
    const streamA = uniqueStreamId('A');
    const streamB = uniqueStreamId('B');
    if (store.db.kind === 'pglite') {
      // PGlite is one connection and runs transactions one at a time: A cannot be open while B
      // commits, so the out-of-order case cannot arise in-process. What must still hold: A's
      // commit is read before B's, and a consumer checkpointing after A reads only B next.
      await store.db.transaction((tx) => appendToStream(tx, streamA, 0, [sampleEvent(1)]));
      const afterA = await drain(store.db, start);
      expect(afterA.events.map((e) => e.streamId)).toEqual([streamA]);
      await store.db.transaction((tx) => appendToStream(tx, streamB, 0, [sampleEvent(2)]));
      expect((await drain(store.db, afterA.checkpoint)).events.map((e) => e.streamId)).toEqual([streamB]);
      return;
    }

    // A appends first (lower position, lower xid) and stays open; B appends and commits.
    const aAppended = deferred();
    const releaseA = deferred();
    const transactionA = store.db.transaction(async (tx) => {
      await appendToStream(tx, streamA, 0, [sampleEvent(1)]);
      aAppended.resolve();
      await releaseA.promise;
    });
    await aAppended.promise;
    const [positionB] = (await store.db.transaction((tx) => appendToStream(tx, streamB, 0, [sampleEvent(2)]))).positions;

    // A reader going by position alone would take B now and later skip A's lower position.
    const byPosition = await store.db.query<{ stream_id: string }>(
      'SELECT stream_id FROM events WHERE global_position > $1 ORDER BY global_position',
      [start?.position ?? 0],
    );
    expect(byPosition.rows.map((r) => r.stream_id)).toEqual([streamB]);
    // readAll withholds B: A's xid is below B's and A is still running.
    const consumer = await drain(store.db, start);
    expect(consumer.events).toEqual([]);

    releaseA.resolve();
    await transactionA;
    const caughtUp = await eventually(() => drain(store.db, consumer.checkpoint), (r) => r.events.length === 2);
    expect(caughtUp.events.map((e) => e.streamId)).toEqual([streamA, streamB]);
    expect(caughtUp.events[1]!.globalPosition).toBe(positionB);
    expect((await drain(store.db, caughtUp.checkpoint)).events).toEqual([]);
  });

  it('orders by transaction, not by position, when a transaction appends after a later one committed', async () => {
    const start = await now();
    const streamA = uniqueStreamId('A');
    const streamB = uniqueStreamId('B');
    if (store.db.kind === 'pglite') {
      // One connection: a transaction takes its xid and appends without anyone in between, so
      // transaction order and position order agree; assert exactly that.
      await store.db.transaction((tx) => appendToStream(tx, streamB, 0, [sampleEvent(1)]));
      await store.db.transaction((tx) => appendToStream(tx, streamA, 0, [sampleEvent(2)]));
      const { events } = await drain(store.db, start);
      expect(events.map((e) => e.streamId)).toEqual([streamB, streamA]);
      expect(events[0]!.globalPosition).toBeLessThan(events[1]!.globalPosition);
      return;
    }
    // A takes its xid first but appends last: its event has the higher position, yet comes first.
    const aHasXid = deferred();
    const bCommitted = deferred();
    const transactionA = store.db.transaction(async (tx) => {
      await tx.query('SELECT pg_current_xact_id()');
      aHasXid.resolve();
      await bCommitted.promise;
      return appendToStream(tx, streamA, 0, [sampleEvent(1)]);
    });
    await aHasXid.promise;
    const b = await store.db.transaction((tx) => appendToStream(tx, streamB, 0, [sampleEvent(2)]));
    bCommitted.resolve();
    const a = await transactionA;
    expect(a.positions[0]).toBeGreaterThan(b.positions[0]!);
    const { events } = await eventually(() => drain(store.db, start), (r) => r.events.length === 2);
    expect(events.map((e) => e.streamId)).toEqual([streamA, streamB]);
  });

  it('gives a polling consumer every event exactly once while writers commit concurrently', async () => {
    const start = await now();
    const writers = store.db.kind === 'postgres' ? 5 : 2;
    const transactionsEach = 8;
    const written: number[] = [];
    const seen: StoredEvent[] = [];
    let checkpoint = start;
    let writing = true;
    const deadline = Date.now() + 20_000;
    const consumer = (async () => {
      while ((writing || seen.length < written.length) && Date.now() < deadline) {
        const page = await readAll(store.db, { after: checkpoint, limit: 4 });
        seen.push(...page);
        if (page.length > 0) checkpoint = checkpointOf(page[page.length - 1]!);
        else await new Promise((resolve) => setTimeout(resolve, 3));
      }
    })();
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        const stream = uniqueStreamId(`w${w}`);
        let version = 0;
        for (let t = 0; t < transactionsEach; t++) {
          const count = 1 + ((w + t) % 3);
          const result = await store.db.transaction(async (tx) => {
            const appended = await appendToStream(tx, stream, version, sampleEvents(count, version + 1));
            await new Promise((resolve) => setTimeout(resolve, (w * 7 + t * 5) % 11)); // stay open a little
            return appended;
          });
          version = result.nextExpectedVersion;
          written.push(...result.positions);
        }
      }),
    );
    writing = false;
    await consumer;
    expect(seen.map((e) => e.globalPosition).sort((x, y) => x - y)).toEqual([...written].sort((x, y) => x - y));
    expectStrictlyIncreasing(seen);
  });

  it('reads every event once in order while transaction ids gain a digit (PGlite sorts a bare xid8 column as text)', async () => {
    const start = await now();
    const stream = uniqueStreamId('digits');
    const xidOf = async () => BigInt((await store.db.query<{ x: string }>(`SELECT pg_current_xact_id()::text AS x`)).rows[0]!.x);
    const first = await xidOf();
    const digits = (x: bigint) => x.toString().length;
    let version = 0;
    // One transaction per append, until the ids have crossed a power of ten (at most 1,200 appends; on
    // PostgreSQL, whose xids are larger, 300 appends show the order holds without a crossing).
    for (let i = 0; i < 1200; i++) {
      version = (await appendToStream(store.db, stream, version, [sampleEvent(i)])).nextExpectedVersion;
      if (i >= 300 && (describeBackend === 'postgres' || digits(await xidOf()) > digits(first))) break;
    }
    if (describeBackend === 'pglite') expect(digits(await xidOf())).toBeGreaterThan(digits(first));
    const { events } = await eventually(() => drain(store.db, start, 50), (r) => r.events.length >= version);
    const ours = events.filter((e) => e.streamId === stream);
    expect(ours.map((e) => e.streamVersion)).toEqual(Array.from({ length: version }, (_, i) => i + 1));
    expectStrictlyIncreasing(events);
  });
});
