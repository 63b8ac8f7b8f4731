import { randomBytes, randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { NatsRelay } from '../apps/projector/src/relay/nats-relay';
import { ensureStream } from '../apps/projector/src/relay/jetstream-stream';
import { msgIdOf, subjectOf, toEnvelope } from '../apps/projector/src/relay/relay-envelope';
import type { RelayLogger } from '../apps/projector/src/relay/relay-config';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import { migrate } from '@palimpsest/store/migrate';
import { openPostgresDb } from '@palimpsest/store/postgres/pg-db';
import { readAll } from '@palimpsest/store/read-all';
import type { Db } from '@palimpsest/store/db';
import { createBenchDatabase } from './bench-database';
import { benchGuard } from './deployed-env';

/**
 * The NATS relay's throughput (events/s from its checkpoint to the end of the log, every ack awaited and
 * every batch checkpointed) beside raw JetStream publishes of the same messages from the same process:
 * the same subjects, bodies and Nats-Msg-Ids, in batches of the same size published pipelined with one
 * Promise.all per batch (the relay's concurrency model), into a stream of their own.
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node dist/bench/relay.js
 *
 * RELAY_BENCH_EVENTS (default 20000), RELAY_BENCH_BATCH (default 500), RELAY_BENCH_ROUNDS (default 3),
 * PALIMPSEST_NATS_URL (default nats://127.0.0.1:4222).
 */
const EVENTS = Number(process.env.RELAY_BENCH_EVENTS ?? 20_000);
const BATCH = Number(process.env.RELAY_BENCH_BATCH ?? 500);
const ROUNDS = Number(process.env.RELAY_BENCH_ROUNDS ?? 3);
const NATS_URL = process.env.PALIMPSEST_NATS_URL || 'nats://127.0.0.1:4222';
const PER_STREAM = 50;
const quiet: RelayLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const ENCODER = new TextEncoder();

interface Target {
  stream: string;
  subjectPrefix: string;
}

function uniqueTarget(kind: string): Target {
  const tag = `${kind}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  return { stream: `PALIMPSEST_BENCH_${tag}`, subjectPrefix: `palimpsest_bench_${tag}` };
}

async function seed(db: Db): Promise<void> {
  for (let s = 0; s < EVENTS / PER_STREAM; s += 1) {
    const events = Array.from({ length: PER_STREAM }, (_, i) => ({
      type: i === 0 ? 'TargetInitialized' : 'ProposalAccepted',
      schemaVersion: 1,
      data: { n: s * PER_STREAM + i, note: 'x'.repeat(200) },
      recordedAt: new Date().toISOString(),
    }));
    await appendToStream(db, `target-${randomUUID()}`, 0, events);
  }
}

/** Raw publishes: the relay's messages, built beforehand, sent batch by batch with every ack awaited. */
async function rawRound(nc: NatsConnection, db: Db): Promise<number> {
  const target = uniqueTarget('raw');
  await ensureStream(await nc.jetstreamManager(), { ...target, dedupeWindowMs: 600_000 });
  const events = await readAll(db, { limit: EVENTS + 1 });
  const messages = events.map((e) => ({ subject: subjectOf(target.subjectPrefix, e), body: ENCODER.encode(JSON.stringify(toEnvelope(e))), msgID: msgIdOf(e) }));
  const js = nc.jetstream();
  const started = performance.now();
  for (let i = 0; i < messages.length; i += BATCH) {
    await Promise.all(messages.slice(i, i + BATCH).map((m) => js.publish(m.subject, m.body, { msgID: m.msgID })));
  }
  const seconds = (performance.now() - started) / 1000;
  await (await nc.jetstreamManager()).streams.delete(target.stream);
  return messages.length / seconds;
}

/** The relay from the beginning of the log (a fresh checkpoint name) to its end. */
async function relayRound(nc: NatsConnection, db: Db, round: number): Promise<number> {
  const target = uniqueTarget('relay');
  const relay = new NatsRelay(db, { url: NATS_URL, ...target, batchSize: BATCH, checkpointName: `relay:bench:${round}`, logger: quiet });
  const started = performance.now();
  await relay.start();
  while (relay.metrics().published < EVENTS) await new Promise((r) => setTimeout(r, 2));
  const seconds = (performance.now() - started) / 1000;
  await relay.stop();
  await (await nc.jetstreamManager()).streams.delete(target.stream);
  return EVENTS / seconds;
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('bench/relay.ts measures on PostgreSQL: set DATABASE_URL');
  const bench = await createBenchDatabase(adminUrl);
  const db = await openPostgresDb({ ...benchGuard('postgres'), connectionString: bench.url });
  const nc = await connect({ servers: NATS_URL });
  try {
    await migrate(db);
    await seed(db);
    process.stdout.write(`relay bench: ${EVENTS} events (${PER_STREAM} a stream), batch ${BATCH}, NATS ${nc.info?.version}, ${ROUNDS} rounds\n`);
    const ratios: number[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const raw = await rawRound(nc, db);
      const relayed = await relayRound(nc, db, round);
      ratios.push(relayed / raw);
      process.stdout.write(`round ${round}: raw js.publish ${raw.toFixed(0)} events/s, relay ${relayed.toFixed(0)} events/s, ratio ${(100 * relayed / raw).toFixed(1)} %\n`);
    }
    const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
    process.stdout.write(`median ratio ${(100 * median).toFixed(1)} % (aim >= 50 %)\n`);
  } finally {
    await nc.close();
    await db.close();
    await bench.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
