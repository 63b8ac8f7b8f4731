import { EVENTS_CHANNEL, type AppendNotification } from '@palimpsest/store/events-channel';
import { eventually } from '@palimpsest/store/test-support/eventually';
import { uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { describeBackend, useTestDb } from '@palimpsest/store/test-support/test-db';
import { WakeNotifier } from '@palimpsest/store/wake-notifier';

describe(`WakeNotifier (${describeBackend})`, () => {
  const store = useTestDb();

  const note = (stream_id: string, global_position: number): AppendNotification => ({ stream_id, global_position, stream_version: global_position });

  it('delivers every stream woken, coalescing wake-ups queued behind the one in flight to the newest per stream', async () => {
    const received: AppendNotification[] = [];
    const stop = await store.db.listen(EVENTS_CHANNEL, (payload) => received.push(JSON.parse(payload) as AppendNotification));
    const wakes = new WakeNotifier(store.db);
    try {
      const [s1, s2] = [uniqueStreamId('wake'), uniqueStreamId('wake')];
      wakes.wake(note(s1, 1)); // sent at once
      wakes.wake(note(s1, 2)); // these three wait for it and go out as one statement
      wakes.wake(note(s2, 3));
      wakes.wake(note(s1, 4));
      await wakes.flush();
      await eventually(async () => received.length, (n) => n >= 3, { timeoutMs: 5000 });
      await new Promise((resolve) => setTimeout(resolve, store.db.kind === 'postgres' ? 200 : 20));
      expect(received).toEqual([note(s1, 1), note(s1, 4), note(s2, 3)]);
    } finally {
      await stop();
    }
  });

  it('starts statements at least minIntervalMs apart under a stream of wake-ups, the first one at once', async () => {
    const sent: { at: number; notes: number }[] = [];
    const counting = {
      query: async (_text: string, params?: unknown[]) => {
        sent.push({ at: performance.now(), notes: (params![1] as string[]).length });
        return store.db.query(_text, params);
      },
    };
    const wakes = new WakeNotifier(counting, EVENTS_CHANNEL, () => undefined, 40);
    const stream = uniqueStreamId('wake');
    const started = performance.now();
    wakes.wake(note(stream, 1));
    for (let i = 2; i <= 20; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      wakes.wake(note(stream, i));
    }
    await wakes.flush();
    expect(sent[0]!.at - started).toBeLessThan(30);
    for (let i = 1; i < sent.length; i++) expect(sent[i]!.at - sent[i - 1]!.at).toBeGreaterThanOrEqual(35); // timer and hand-over jitter
    expect(sent.length).toBeLessThanOrEqual(Math.ceil((performance.now() - started) / 40) + 1);
    expect(sent.length).toBeLessThan(20);
  });

  it('swallows a failed send (a wake-up is a hint) and refuses new ones after close', async () => {
    const errors: unknown[] = [];
    const failing = new WakeNotifier({ query: () => Promise.reject(new Error('connection lost')) }, EVENTS_CHANNEL, (e) => errors.push(e));
    failing.wake(note('s', 1));
    await failing.flush();
    expect(errors).toHaveLength(1);
    await failing.close();
    failing.wake(note('s', 2));
    await failing.flush();
    expect(errors).toHaveLength(1);
  });

  it('sends a wake-up deferred with wakeWithNext in the next statement, or at flush', async () => {
    const sent: string[][] = [];
    const recording = { query: async (_text: string, params?: unknown[]) => (sent.push(params![1] as string[]), { rows: [], rowCount: 0 }) };
    const wakes = new WakeNotifier(recording);
    const [started, outcome] = [uniqueStreamId('deferred'), uniqueStreamId('next')];
    wakes.wakeWithNext([note(started, 1)]);
    expect(sent).toEqual([]);
    wakes.wakeAll([note(outcome, 2), note(started, 3)]);
    await wakes.flush();
    expect(sent.map((batch) => batch.map((n) => JSON.parse(n) as AppendNotification))).toEqual([[note(started, 3), note(outcome, 2)]]);
    wakes.wakeWithNext([note(started, 4)]);
    await wakes.flush();
    expect(sent).toHaveLength(2);
    expect(JSON.parse(sent[1]![0]!)).toEqual(note(started, 4));
  });
});
