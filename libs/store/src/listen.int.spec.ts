import { appendToStream } from '@palimpsest/store/append-to-stream';
import { EVENTS_CHANNEL, type AppendNotification } from '@palimpsest/store/events-channel';
import { eventually } from '@palimpsest/store/test-support/eventually';
import { sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { describeBackend, useTestDb } from '@palimpsest/store/test-support/test-db';

describe(`Db.listen with appendToStream (${describeBackend})`, () => {
  const store = useTestDb();

  const settle = () => new Promise((resolve) => setTimeout(resolve, store.db.kind === 'postgres' ? 150 : 20));

  it('delivers one notification per committed append, with the stream and its last position', async () => {
    const received: AppendNotification[] = [];
    const stop = await store.db.listen(EVENTS_CHANNEL, (payload) => received.push(JSON.parse(payload) as AppendNotification));
    try {
      const stream = uniqueStreamId('notify');
      const { positions } = await store.db.transaction((tx) => appendToStream(tx, stream, 0, sampleEvents(3)));
      await eventually(async () => received.length, (n) => n >= 1, { timeoutMs: 5000 });
      expect(received).toEqual([{ stream_id: stream, global_position: positions[2], stream_version: 3 }]);
    } finally {
      await stop();
    }
  });

  it('sends nothing for a rolled-back append, nor to a listener that unsubscribed', async () => {
    const received: string[] = [];
    const stop = await store.db.listen(EVENTS_CHANNEL, (payload) => received.push(payload));
    await expect(
      store.db.transaction(async (tx) => {
        await appendToStream(tx, uniqueStreamId('gone'), 0, sampleEvents(1));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await settle();
    expect(received).toEqual([]);
    await stop();
    await appendToStream(store.db, uniqueStreamId('unheard'), 0, sampleEvents(1));
    await settle();
    expect(received).toEqual([]);
  });

  it('serves several listeners and custom channels over the same Db', async () => {
    const first: string[] = [];
    const second: string[] = [];
    const custom: string[] = [];
    const stops = await Promise.all([
      store.db.listen(EVENTS_CHANNEL, (p) => first.push(p)),
      store.db.listen(EVENTS_CHANNEL, (p) => second.push(p)),
      store.db.listen('palimpsest_custom', (p) => custom.push(p)),
    ]);
    try {
      const stream = uniqueStreamId('multi');
      await appendToStream(store.db, stream, 0, sampleEvents(1));
      await appendToStream(store.db, stream, 1, sampleEvents(1), { notifyChannel: 'palimpsest_custom' });
      await eventually(async () => first.length + second.length + custom.length, (n) => n >= 3, { timeoutMs: 5000 });
      await stops[0]!();
      await appendToStream(store.db, stream, 2, sampleEvents(1));
      await eventually(async () => second.length, (n) => n >= 2, { timeoutMs: 5000 });
      await settle();
      expect(first.map((p) => JSON.parse(p).stream_version)).toEqual([1]);
      expect(second.map((p) => JSON.parse(p).stream_version)).toEqual([1, 3]);
      expect(custom.map((p) => JSON.parse(p).stream_version)).toEqual([2]);
      if (store.db.kind === 'postgres') {
        // All of them share one LISTEN connection.
        const { rows } = await store.db.query<{ n: number }>(
          `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'palimpsest-listen'`,
        );
        expect(rows[0]!.n).toBe(1);
      }
    } finally {
      for (const stop of stops) await stop();
    }
  });

  it('keeps listening after the listener connection is lost (postgres) or a statement fails (pglite)', async () => {
    const received: string[] = [];
    const stop = await store.db.listen(EVENTS_CHANNEL, (payload) => received.push(payload));
    try {
      if (store.db.kind === 'postgres') {
        const listenerPids = async () =>
          (await store.db.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity
             WHERE datname = current_database() AND application_name = 'palimpsest-listen' AND query ILIKE 'LISTEN%'`,
          )).rows.map((r) => r.pid);
        const pids = await listenerPids();
        expect(pids).toHaveLength(1);
        const [before] = pids;
        expect(typeof before).toBe('number');
        await store.db.query('SELECT pg_terminate_backend($1)', [before]);
        // Reconnected and LISTENing again on a new backend.
        const after = await eventually(listenerPids, (pids) => pids.length === 1 && pids[0] !== before, { timeoutMs: 10_000 });
        expect(after).toHaveLength(1);
        expect(after[0]).not.toBe(before);
      } else {
        await expect(store.db.query('SELECT * FROM no_such_table')).rejects.toMatchObject({ code: '42P01' });
      }
      const stream = uniqueStreamId('after-loss');
      await appendToStream(store.db, stream, 0, sampleEvents(1));
      await eventually(async () => received.length, (n) => n >= 1, { timeoutMs: 5000 });
      expect(JSON.parse(received[0]!).stream_id).toBe(stream);
    } finally {
      await stop();
    }
  });

  it('refuses channel names that would need quoting', async () => {
    await expect(store.db.listen('Bad-Channel', () => undefined)).rejects.toThrow(/invalid notification channel/);
  });
});
