import { appendToStream } from '@palimpsest/store/append-to-stream';
import { join } from 'node:path';
import type { NatsConnection } from 'nats';
import { eventually } from '@palimpsest/store/test-support/eventually';
import { describeBackend, useTestDb } from '@palimpsest/store/test-support/test-db';
import { NatsRelay } from './nats-relay';
import type { RelayEnvelope } from './relay-envelope';
import { connectNats, deleteStream, NATS_URL, uniqueRelayTarget } from './test-support/jetstream-reader';
import { spawnModule, type RelayProcess } from './test-support/spawn-relay';
import { appenderWith, engineStreamId } from './test-support/writers';

const appendNext = appenderWith(appendToStream);
const EXAMPLE = join(__dirname, '../../../../docs/examples/nest-relay-consumer.ts');
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe(`the NestJS consumer of docs/examples (${describeBackend}, real NATS)`, () => {
  const store = useTestDb();
  const target = uniqueRelayTarget();
  let nc: NatsConnection;
  let consumer: RelayProcess | undefined;
  let relay: NatsRelay | undefined;

  beforeAll(async () => {
    nc = await connectNats();
  });
  afterAll(async () => {
    await relay?.stop();
    consumer?.child.kill('SIGTERM');
    await consumer?.ended;
    await deleteStream(nc, target.stream);
    await nc?.close();
  });

  it('receives the relayed events of target streams through @EventPattern: whole envelopes, with their Nats-Msg-Id', async () => {
    consumer = spawnModule(EXAMPLE, 'runExampleConsumer', { ...process.env, PALIMPSEST_NATS_URL: NATS_URL, RELAY_EXAMPLE_PATTERN: `${target.subjectPrefix}.target.>` });
    await consumer.waitFor((line) => line.msg === 'listening', 20_000);
    relay = new NatsRelay(store.db, { url: NATS_URL, ...target, pollIntervalMs: 50, logger: quiet });
    await relay.start();
    const targetStream = engineStreamId(0);
    for (let k = 0; k < 5; k += 1) await appendNext(store.db, targetStream);
    await appendNext(store.db, engineStreamId(1)); // a candidate stream: not this pattern's
    await eventually(() => relay!.status(), (s) => s.lag_events === 0);
    const events = () => consumer!.lines.filter((l) => l.msg === 'event') as unknown as { subject: string; msgId: string; envelope: RelayEnvelope }[];
    await eventually(async () => events().length, (n) => n >= 5);
    await new Promise((r) => setTimeout(r, 200));
    const received = events();
    expect(received.map((r) => [r.envelope.stream_id, r.envelope.stream_version, r.msgId])).toEqual(
      received.map((r, i) => [targetStream, i + 1, String(r.envelope.global_position)]),
    );
    expect(received).toHaveLength(5);
    expect(received[0]).toMatchObject({ subject: `${target.subjectPrefix}.target.${targetStream}.${received[0]!.envelope.event_type}`, envelope: { stream_type: 'target', schema_version: 1 } });
  });
});
