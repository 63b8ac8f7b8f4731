import { appendToStream } from '@palimpsest/store/append-to-stream';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { NatsConnection } from 'nats';
import { publishedSchemaFiles } from '@palimpsest/protocol/publish/published-schemas';
import { RELAY_ENVELOPE_SCHEMA_PATH } from '@palimpsest/protocol/publish/relay-envelope-schema';
import type { Db } from '@palimpsest/store/db';
import { openPostgresDb } from '@palimpsest/store/postgres/pg-db';
import { checkpointOf, readAll } from '@palimpsest/store/read-all';
import { deferred, eventually } from '@palimpsest/store/test-support/eventually';
import { createTestDb, databaseUrlOf, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { projectorStatus } from '@palimpsest/application/queries/projector-status.handler';
import { NatsRelay } from './nats-relay';
import type { RelayLogger } from './relay-config';
import { connectNats, deleteStream, NATS_URL, readJetStream, uniqueRelayTarget } from './test-support/jetstream-reader';
import { auditRelayed, cleanAudit } from './test-support/relayed-events';
import { appenderWith, engineStreamId } from './test-support/writers';

const appendNext = appenderWith(appendToStream);
const WRITERS = 32;
const HOLDERS = 8;
const APPENDS = 4;
const quiet: RelayLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe(`NatsRelay (${describeBackend}, real NATS)`, () => {
  let store: TestDb;
  const target = uniqueRelayTarget();
  let nc: NatsConnection;
  let writers: Db;
  const relays: NatsRelay[] = [];
  const newRelay = (extra: Partial<ConstructorParameters<typeof NatsRelay>[1]> = {}) => {
    const relay = new NatsRelay(store.db, { url: NATS_URL, ...target, batchSize: 25, pollIntervalMs: 50, logger: quiet, ...extra });
    relays.push(relay);
    return relay;
  };

  beforeAll(async () => {
    store = await createTestDb();
    nc = await connectNats();
    // On PostgreSQL the writers get their own pool, as another process would: the held transactions must not starve the relay.
    writers = store.db.kind === 'postgres' ? await openPostgresDb({ connectionString: await databaseUrlOf(store.db), poolMax: WRITERS + 4 }) : store.db;
  });
  afterAll(async () => {
    for (const relay of relays) await relay.stop();
    if (writers && writers !== store.db) await writers.close();
    await deleteStream(nc, target.stream);
    await nc?.close();
    await store?.dispose(); // last: the relays and the writers' pool end before the database is dropped
  });

  it('publishes every event exactly once, in per-stream order, while transactions commit out of order', async () => {
    const relay = newRelay();
    await relay.start();
    const streams = Array.from({ length: WRITERS }, (_, i) => engineStreamId(i));
    streams[1] = 'odd.stream *>-%é'; // not a valid NATS token as is
    streams[6] = streams[7] = streams[9] = streams[5]!; // four writers (none of them a holder) race on one stream
    const release = deferred();
    const holding: Promise<void>[] = [];
    const held = Array.from({ length: HOLDERS }, () => deferred());
    // Holders append first (the lowest positions) and stay open while every later position commits.
    const hold = (i: number) => async () => {
      held[i]!.resolve();
      await (store.db.kind === 'postgres' ? release.promise : new Promise((r) => setTimeout(r, 5)));
    };
    for (let i = 0; i < HOLDERS; i += 1) holding.push(appendNext(writers, streams[i * 4]!, hold(i)));
    await Promise.all(held.map((h) => h.promise));
    const others = streams.filter((_, i) => i % 4 !== 0);
    await Promise.all(others.map(async (stream) => {
      for (let k = 0; k < APPENDS; k += 1) await appendNext(writers, stream);
    }));
    if (store.db.kind === 'postgres') {
      await new Promise((r) => setTimeout(r, 300)); // several relay polls, every later event committed
      expect((await readJetStream(nc, target.stream)).length).toBe(0); // withheld, not skipped
    }
    release.resolve();
    await Promise.all(holding);
    await Promise.all(streams.filter((_, i) => i % 4 === 0).map(async (stream) => {
      for (let k = 1; k < APPENDS; k += 1) await appendNext(writers, stream);
    }));

    const total = WRITERS * APPENDS;
    const status = await eventually(() => relay.status(), (s) => s.lag_events === 0 && s.state === 'running' && s.checkpoint.position > 0, { timeoutMs: 20_000 }); // running once a read comes back empty
    const messages = await eventually(() => readJetStream(nc, target.stream), (m) => m.length >= total);
    expect(await auditRelayed(store.db, messages, target.subjectPrefix)).toEqual(cleanAudit(total));
    const validate = envelopeValidator();
    expect(messages.filter((m) => !validate(m.body)).map((m) => ({ position: m.body.global_position, errors: validate.errors }))).toEqual([]);
    // The writers share one counter, so which type each of the odd stream's events got depends on the interleaving.
    const odd = `${target.subjectPrefix}.odd%2Estream%20%2A%3E.odd%2Estream%20%2A%3E-%25%C3%A9.`;
    const oddTypes = messages.filter((m) => m.subject.startsWith(odd)).map((m) => m.subject.slice(odd.length));
    expect(oddTypes).toHaveLength(APPENDS);
    expect(oddTypes.filter((t) => t !== 'SampleHappened' && t !== 'SampleNoted')).toEqual([]);

    const all = await readAll(store.db, { limit: 10_000 });
    expect(status).toEqual({
      name: 'relay:nats',
      kind: 'relay',
      state: 'running',
      checkpoint: checkpointOf(all[all.length - 1]!),
      lag_events: 0,
      lag_seconds: 0,
      leader: relay.holder,
    });
    expect(relay.metrics()).toMatchObject({ published: total, duplicates: 0, order_violations: 0, leading: true });
    // Operators see it beside the projections (projections status, /health).
    expect((await projectorStatus(store.db, 30)).consumers).toContainEqual(status);
  });

  it('a standby waits on the leader lock and takes over where the leader stopped; status reports the lag', async () => {
    const [standby] = [newRelay()];
    await standby.start();
    await new Promise((r) => setTimeout(r, 200));
    expect(standby.metrics().leading).toBe(false); // the first test's relay still leads
    const leader = relays[0]!;
    await leader.stop();
    const before = (await readAll(store.db, { limit: 10_000 })).length;
    const stream = engineStreamId(0);
    for (let k = 0; k < 30; k += 1) await appendNext(store.db, stream);
    await eventually(async () => standby.metrics().leading, Boolean);
    await eventually(() => standby.status(), (s) => s.lag_events === 0);
    const messages = await eventually(() => readJetStream(nc, target.stream), (m) => m.length >= before + 30);
    expect(await auditRelayed(store.db, messages, target.subjectPrefix)).toEqual(cleanAudit(before + 30));
    await standby.stop();
    for (let k = 0; k < 3; k += 1) await appendNext(store.db, stream);
    expect(await standby.status()).toMatchObject({ state: 'stopped', lag_events: 3, leader: null });
  });
});

/** The published envelope schema (schemas/relay/), with the event schemas it refers to. */
function envelopeValidator() {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
  addFormats(ajv);
  for (const [path, schema] of publishedSchemaFiles()) if (path.startsWith('events/')) ajv.addSchema(schema as object);
  return ajv.compile(publishedSchemaFiles().get(RELAY_ENVELOPE_SCHEMA_PATH) as object);
}
