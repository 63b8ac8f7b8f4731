import type { NatsConnection } from 'nats';
import type { AsyncProjection } from '@palimpsest/projections/async/async-projection.port';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Db } from '@palimpsest/store/db';
import { EVENTS_CHANNEL } from '@palimpsest/store/events-channel';
import { eventually } from '@palimpsest/store/test-support/eventually';
import { sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { describeBackend, useTestDb } from '@palimpsest/store/test-support/test-db';
import { LogConsumer } from './log-consumer';
import { projectionProcessor } from './projection-processor';
import type { RelayLogger } from './relay/relay-config';
import { RelayProcessor } from './relay/relay-processor';
import { connectNats, deleteStream, NATS_URL, readJetStream, uniqueRelayTarget } from './relay/test-support/jetstream-reader';
import { auditRelayed, cleanAudit } from './relay/test-support/relayed-events';
import { auditRecording, createRecordingTable, recordingProjection } from './test-support/recording.projection';

const quiet: RelayLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const CLEAN = { skipped: [], duplicated: [], outOfOrder: [] };
/** Both readAll statements (PostgreSQL's and PGlite's) hold the snapshot's xmin as their horizon. */
const LOG_READ = 'pg_snapshot_xmin(pg_current_snapshot())';

/** The store, counting the reads of the log made through it. */
function countingReads(db: Db): { db: Db; reads(): number } {
  let reads = 0;
  const counted = new Proxy(db, {
    get(target, prop) {
      if (prop === 'query') {
        return (text: string, params?: unknown[]) => {
          if (text.includes(LOG_READ)) reads += 1;
          return target.query(text, params);
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: counted, reads: () => reads };
}

/** The recording projection, throwing while `failing.now` is set (before it writes anything). */
function failingProjection(name: string, table: string, failing: { now: boolean }): AsyncProjection {
  const recording = recordingProjection(name, table);
  return {
    ...recording,
    async apply(tx, events) {
      if (failing.now) throw new Error(`${name} refuses the batch`);
      await recording.apply(tx, events);
    },
  };
}

describe(`one log consumer for the projections and the relay (${describeBackend}, real NATS)`, () => {
  const store = useTestDb();
  const target = uniqueRelayTarget();
  let nc: NatsConnection;
  let consumer: LogConsumer | undefined;
  const relayNamed = (checkpointName: string) => new RelayProcessor({ url: NATS_URL, ...target, checkpointName, batchSize: 100, dedupeWindowMs: 60_000, pollIntervalMs: 1000, logger: quiet });

  beforeAll(async () => {
    nc = await connectNats();
  });
  afterEach(async () => {
    await consumer?.stop();
    consumer = undefined;
  });
  afterAll(async () => {
    await deleteStream(nc, target.stream);
    await nc?.close();
  });

  it('drives a projection and the relay from one wake-up, with one read of the log for both', async () => {
    const counting = countingReads(store.db);
    await createRecordingTable(store.db, 'recorded_one');
    // No poll within the test: only the append's NOTIFY wakes the consumer.
    consumer = new LogConsumer(counting.db, [projectionProcessor(counting.db, recordingProjection('test-one', 'recorded_one')), relayNamed('relay:test-one')], {
      pollMs: 600_000,
      leaseRetryMs: 600_000,
      batchSize: 100,
    });
    await consumer.start();
    // The first step: both lead, both at the start of the log, one read for both (the log is empty).
    await eventually(async () => counting.reads(), (n) => n >= 1);
    expect(consumer.processors.map((p) => p.leading)).toEqual([true, true]);
    expect(counting.reads()).toBe(1);

    // On a shared PostgreSQL server another database's open transaction can withhold the events from
    // the read the NOTIFY caused; then the test wakes the consumer again the same way (pg_notify), never by polling.
    let nudges = 0;
    const nudge = describeBackend === 'postgres' ? setInterval(() => void store.db.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, '{}']).then(() => (nudges += 1)), 1_000) : undefined;
    try {
      await appendToStream(store.db, uniqueStreamId('one'), 0, sampleEvents(3));
      const [projection, relay] = await eventually(() => consumer!.statuses(), (s) => s.every((c) => c.lag_events === 0 && c.checkpoint.position > 0), { timeoutMs: 20_000 });
      expect(projection).toMatchObject({ name: 'test-one', kind: 'projection', state: 'running', lag_events: 0 });
      expect(relay).toMatchObject({ name: 'relay:test-one', kind: 'relay', state: 'running', lag_events: 0 });
      expect(relay!.checkpoint).toEqual(projection!.checkpoint);
    } finally {
      clearInterval(nudge);
    }
    // One wake-up (and each nudge), one step, one read: the relay and the projection did not read apart.
    expect(counting.reads() - 1).toBeGreaterThanOrEqual(1);
    expect(counting.reads() - 1).toBeLessThanOrEqual(1 + nudges);
    expect(await auditRecording(store.db, 'recorded_one')).toMatchObject({ events: 3, recorded: 3, ...CLEAN });
    const messages = await eventually(() => readJetStream(nc, target.stream), (m) => m.length >= 3);
    expect(await auditRelayed(store.db, messages, target.subjectPrefix)).toEqual(cleanAudit(3));
  });

  it('pauses a failing processor alone: the others go on, its checkpoint stays, and it resumes from it', async () => {
    const { db } = store;
    await createRecordingTable(db, 'recorded_ok');
    await createRecordingTable(db, 'recorded_failing');
    const failing = { now: true };
    const errors: string[] = [];
    consumer = new LogConsumer(
      db,
      [
        projectionProcessor(db, recordingProjection('test-ok', 'recorded_ok')),
        projectionProcessor(db, failingProjection('test-failing', 'recorded_failing', failing)),
        relayNamed('relay:test-failing'),
      ],
      { pollMs: 50, retryMs: 50, batchSize: 100, onError: (_error, processor) => void errors.push(processor) },
    );
    await consumer.start();
    const stream = uniqueStreamId('failing');
    await appendToStream(db, stream, 0, sampleEvents(4));
    const first = await eventually(() => consumer!.statuses(), ([ok, , relay]) => ok!.lag_events === 0 && relay!.lag_events === 0, { timeoutMs: 20_000 });
    await eventually(async () => errors.length, (n) => n >= 2); // it was retried, and failed again
    await appendToStream(db, stream, 4, sampleEvents(2, 5));
    const [ok, stuck, relay] = await eventually(() => consumer!.statuses(), ([o, , r]) => o!.lag_events === 0 && r!.lag_events === 0 && o!.checkpoint.position > first[0]!.checkpoint.position, { timeoutMs: 20_000 });
    expect(ok).toMatchObject({ name: 'test-ok', lag_events: 0, state: 'running' });
    expect(relay).toMatchObject({ name: 'relay:test-failing', lag_events: 0, checkpoint: ok!.checkpoint });
    expect(stuck).toMatchObject({ name: 'test-failing', checkpoint: { position: 0 } });
    expect(stuck!.lag_events).toBeGreaterThanOrEqual(6);
    expect(new Set(errors)).toEqual(new Set(['test-failing']));
    const [okRunning, , relayRunning] = consumer.processors;
    expect([okRunning!.leading, relayRunning!.leading]).toEqual([true, true]); // the failing one gave up only its own lease
    expect((await auditRecording(db, 'recorded_failing')).recorded).toBe(0);

    failing.now = false;
    const [, resumed] = await eventually(() => consumer!.statuses(), ([, f]) => f!.lag_events === 0, { timeoutMs: 20_000 });
    expect(resumed).toMatchObject({ name: 'test-failing', state: 'running', checkpoint: ok!.checkpoint });
    // From its own checkpoint: every event once, in order (the ones before this test included).
    expect(await auditRecording(db, 'recorded_failing')).toMatchObject(CLEAN);
    expect(await auditRecording(db, 'recorded_ok')).toMatchObject(CLEAN);
  });
});
