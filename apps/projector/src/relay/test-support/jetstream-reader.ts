import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import type { RelayEnvelope } from '../relay-envelope';

export const NATS_URL = process.env.PALIMPSEST_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** A stream name and subject prefix no other test file or run uses. */
export function uniqueRelayTarget(): { stream: string; subjectPrefix: string } {
  const tag = `${process.pid}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  return { stream: `PALIMPSEST_TEST_${tag}`, subjectPrefix: `palimpsest_test_${tag}` };
}

export interface RelayedMessage {
  seq: number;
  subject: string;
  msgId: string | undefined;
  body: RelayEnvelope;
}

/** Every message of the stream, in stream order, through an ordered consumer. */
export async function readJetStream(nc: NatsConnection, stream: string, timeoutMs = 15_000): Promise<RelayedMessage[]> {
  const total = (await (await nc.jetstreamManager()).streams.info(stream)).state.messages;
  const out: RelayedMessage[] = [];
  if (total === 0) return out;
  const consumer = await nc.jetstream().consumers.get(stream);
  const deadline = Date.now() + timeoutMs;
  while (out.length < total && Date.now() < deadline) {
    const batch = await consumer.fetch({ max_messages: Math.min(1000, total - out.length), expires: 2000 });
    for await (const m of batch) {
      out.push({ seq: m.seq, subject: m.subject, msgId: m.headers?.get('Nats-Msg-Id'), body: m.json<RelayEnvelope>() });
    }
  }
  return out;
}

export async function connectNats(): Promise<NatsConnection> {
  return connect({ servers: NATS_URL });
}

export async function deleteStream(nc: NatsConnection, stream: string): Promise<void> {
  await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
}
