import { AppendBatcher } from './append-batcher';
import { StreamVersionConflictError } from './errors';
import { EVENTS_CHANNEL, type AppendNotification } from './events-channel';
import { EventStore } from './event-store';
import { InlineProjections, type InlineProjection } from './inline-projection';
import { readStream } from './read-stream';
import { sql } from './sql-fragment';
import { CountingDb } from './test-support/counting-db';
import { eventually } from './test-support/eventually';
import { sampleEvent, uniqueStreamId } from './test-support/sample-events';
import { describeBackend, useTestDb } from './test-support/test-db';
import { WakeNotifier } from './wake-notifier';

type Sample = { type: 'SampleHappened'; data: { n: number } };

/** A registered projection: one row per SampleHappened, at the position and version its append gave it. */
const samples: InlineProjection<Sample, { label: string }> = {
  name: 'samples',
  canHandle: ['SampleHappened'],
  handle: (pe) => [
    sql`INSERT INTO projected_samples (stream_id, stream_version, position, n, label)
        SELECT ${pe.streamId}, ${pe.streamVersion}, ${pe.position}, ${pe.event.data.n}, ${pe.after.label} WHERE ${pe.appended}`,
  ],
};

const NOTIFY = /pg_notify/;

describe(`EventStore.append with registered inline projections (${describeBackend})`, () => {
  const t = useTestDb();
  let counted: CountingDb;
  let wakes: WakeNotifier;
  let store: EventStore;

  beforeAll(async () => {
    await t.db.exec(`CREATE TABLE projected_samples (stream_id text NOT NULL, stream_version bigint NOT NULL, position bigint NOT NULL,
      n integer NOT NULL, label text, PRIMARY KEY (stream_id, stream_version))`);
    await t.db.exec('CREATE TABLE guard_rows (id text PRIMARY KEY, v bigint NOT NULL)');
    counted = new CountingDb(t.db);
    wakes = new WakeNotifier(counted);
    store = new EventStore(counted, new InlineProjections().register(samples), { appends: new AppendBatcher(counted), wakes });
  });
  afterAll(() => wakes.close());

  const event = (n: number, label = `e${n}`) => ({ ...sampleEvent(n), after: { label } });
  const projected = async (stream: string) =>
    (await t.db.query('SELECT stream_version, position, n, label FROM projected_samples WHERE stream_id = $1 ORDER BY stream_version', [stream])).rows;
  const guardOn = (id: string, v: number) => sql`SELECT 1 FROM guard_rows WHERE id = ${id} AND v = ${v} FOR UPDATE NOWAIT`;

  it('runs the projections registered for an event type in the statement that appends it, outside any transaction when guarded', async () => {
    const [stream, row] = [uniqueStreamId('one'), uniqueStreamId('row')];
    await t.db.query('INSERT INTO guard_rows (id, v) VALUES ($1, 0)', [row]);
    await wakes.flush();
    counted.reset();
    const appended = await store.append(stream, 0, [event(1)], { guard: guardOn(row, 0) });
    await wakes.flush();
    expect({ statements: counted.statements, transactions: counted.transactions }).toEqual({ statements: 2, transactions: 0 });
    expect(counted.log[0]).toMatch(/^WITH input/);
    expect(counted.log[0]).not.toMatch(NOTIFY); // the wake-up is the statement after it
    expect(counted.log[1]).toMatch(NOTIFY);
    expect(await projected(stream)).toEqual([{ stream_version: 1, position: appended.positions[0], n: 1, label: 'e1' }]);
  });

  it('projects each of several events at its own position, in the one transaction; an unregistered type is appended alone', async () => {
    const stream = uniqueStreamId('several');
    const appended = await store.append(stream, 0, [event(1), event(2), event(3)]);
    expect(appended.nextExpectedVersion).toBe(3);
    expect((await projected(stream)).map((r) => [r.stream_version, r.position])).toEqual(appended.positions.map((p, i) => [i + 1, p]));
    const other = uniqueStreamId('unregistered');
    await store.append(other, 0, [{ ...sampleEvent(1), type: 'NothingProjects' }, { ...sampleEvent(2), type: 'NothingProjects' }]);
    expect((await readStream(t.db, other)).length).toBe(2);
    expect(await projected(other)).toEqual([]);
  });

  it('writes nothing, events or projections, when the guard refuses, alone or in a transaction', async () => {
    const [stream, row] = [uniqueStreamId('refused'), uniqueStreamId('row')];
    await t.db.query('INSERT INTO guard_rows (id, v) VALUES ($1, 7)', [row]);
    await wakes.flush();
    counted.reset();
    await expect(store.append(stream, 0, [event(1)], { guard: guardOn(row, 6) })).rejects.toBeInstanceOf(StreamVersionConflictError);
    await expect(store.transaction((tx) => tx.append(stream, 0, [event(1)], { guard: guardOn(row, 6) }))).rejects.toBeInstanceOf(StreamVersionConflictError);
    await expect(store.append(stream, 0, [event(1), event(2)], { guard: guardOn(row, 6) })).rejects.toBeInstanceOf(StreamVersionConflictError);
    await wakes.flush();
    expect(await readStream(t.db, stream)).toEqual([]);
    expect(await projected(stream)).toEqual([]);
    expect(counted.log.filter((s) => NOTIFY.test(s))).toEqual([]); // nothing committed, nobody woken
  });

  it('commits riders with the events, in the same statement, or not at all', async () => {
    const [main, rider] = [uniqueStreamId('main'), uniqueStreamId('rider')];
    counted.reset();
    const appended = await store.transaction((tx) => tx.append(main, 0, [event(1)], { riders: [{ streamId: rider, expectedVersion: 0, events: [event(2, 'rider')] }] }));
    expect(counted.log.filter((s) => s.startsWith('  tx '))).toHaveLength(1);
    expect(appended.riders).toHaveLength(1);
    expect(await projected(main)).toEqual([{ stream_version: 1, position: appended.positions[0], n: 1, label: 'e1' }]);
    expect(await projected(rider)).toEqual([{ stream_version: 1, position: appended.riders[0]!.positions[0], n: 2, label: 'rider' }]);

    const stale = store.transaction((tx) => tx.append(main, 1, [event(3)], { riders: [{ streamId: rider, expectedVersion: 0, events: [event(4)] }] }));
    await expect(stale).rejects.toBeInstanceOf(StreamVersionConflictError);
    expect((await readStream(t.db, main)).length).toBe(1);
    expect((await projected(main)).map((r) => r.n)).toEqual([1]);
  });

  it('wakes listeners once per commit, after it, with every stream it wrote (riders included)', async () => {
    const [main, rider] = [uniqueStreamId('woken'), uniqueStreamId('woken-rider')];
    const heard: AppendNotification[] = [];
    const unlisten = await t.db.listen(EVENTS_CHANNEL, (payload) => heard.push(JSON.parse(payload)));
    try {
      await wakes.flush();
      counted.reset();
      const appended = await store.transaction(async (tx) => {
        const first = await tx.append(main, 0, [event(1)], { riders: [{ streamId: rider, expectedVersion: 0, events: [event(2)] }] });
        await tx.append(main, 1, [event(3)]);
        return first;
      });
      await wakes.flush();
      const notifies = counted.log.filter((s) => NOTIFY.test(s));
      expect(notifies).toHaveLength(1);
      expect(counted.log.findIndex((s) => NOTIFY.test(s))).toBe(counted.log.length - 1); // after the commit, never inside it
      const mine = await eventually(
        async () => heard.filter((n) => n.stream_id === main || n.stream_id === rider),
        (notes) => notes.length >= 2,
      );
      expect(mine.sort((a, b) => a.stream_id.localeCompare(b.stream_id))).toEqual(
        [
          { stream_id: main, global_position: Math.max(...(await readStream(t.db, main)).map((e) => e.globalPosition)), stream_version: 2 },
          { stream_id: rider, global_position: appended.riders[0]!.positions[0], stream_version: 1 },
        ].sort((a, b) => a.stream_id.localeCompare(b.stream_id)),
      );
    } finally {
      await unlisten();
    }
  });
});
