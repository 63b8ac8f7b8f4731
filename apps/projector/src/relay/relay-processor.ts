import { connect, type JetStreamClient, type NatsConnection, type PubAck } from 'nats';
import { leaderIdentity } from '@palimpsest/projections/async/consumer-leases';
import type { StoredEvent } from '@palimpsest/store/stored-event';
import { crashPoint } from '@palimpsest/testing/crash-point';
import type { LogProcessor, ProcessorBatch } from '../log-processor';
import { ensureStream } from './jetstream-stream';
import type { NatsRelayOptions } from './relay-config';
import { msgIdOf, subjectOf, toEnvelope } from './relay-envelope';

/** Counters since this instance started (for /metrics beside ConsumerStatus). */
export interface RelayMetrics {
  published: number;
  /** Publishes JetStream answered as duplicates: the re-sent tail after a crash, never stored twice. */
  duplicates: number;
  batches: number;
  /** Acks whose stream sequence did not follow the previous one's (logged as errors; should stay 0). */
  order_violations: number;
  leading: boolean;
}

const ENCODER = new TextEncoder();

/**
 * The NATS relay as a processor of the log consumer (Emmett's reactor()): publishes every batch to
 * JetStream, then moves its checkpoint. At least once, stored once: Nats-Msg-Id is the global
 * position, so the re-publish of a tail acknowledged but not checkpointed (a crash in between) is a
 * duplicate the server drops; the checkpoint moves only after every ack of its batch.
 */
export class RelayProcessor implements LogProcessor {
  readonly kind = 'relay';
  private nc: NatsConnection | null = null;
  private js: JetStreamClient | null = null;
  private lastSeq = 0;
  private readonly counters: RelayMetrics = { published: 0, duplicates: 0, batches: 0, order_violations: 0, leading: false };

  constructor(
    readonly options: NatsRelayOptions,
    readonly holder = leaderIdentity(),
  ) {}

  get name(): string {
    return this.options.checkpointName;
  }

  get batchSize(): number {
    return this.options.batchSize;
  }

  /** Connects, and creates or updates the stream. */
  async open(): Promise<void> {
    if (this.nc) return;
    const { url, stream, subjectPrefix, dedupeWindowMs, logger } = this.options;
    const nc = await connect({ servers: url.split(','), name: `palimpsest-relay ${this.holder}`, maxReconnectAttempts: -1 });
    try {
      await ensureStream(await nc.jetstreamManager(), { stream, subjectPrefix, dedupeWindowMs });
    } catch (error) {
      await nc.close();
      throw error;
    }
    this.nc = nc;
    this.js = nc.jetstream();
    logger.info({ stream, subjects: `${subjectPrefix}.>`, holder: this.holder }, 'relay started');
  }

  async close(): Promise<void> {
    const nc = this.nc;
    this.nc = null;
    this.js = null;
    await nc?.drain().catch(() => nc.close());
  }

  leading(lead: boolean): void {
    this.counters.leading = lead;
    if (!lead) return;
    this.lastSeq = 0;
    this.options.logger.info({ holder: this.holder }, 'relay leads');
  }

  async handle(events: readonly StoredEvent[], batch: ProcessorBatch): Promise<void> {
    const duplicates = await this.publish(events);
    crashPoint('relay.after_acks');
    await batch.commit();
    this.counters.batches += 1;
    this.counters.published += events.length - duplicates;
    this.counters.duplicates += duplicates;
    this.options.logger.info({ events: events.length, duplicates, position: batch.to.position }, 'relay batch');
  }

  failed(error: unknown): void {
    this.options.logger.error({ err: error }, 'relay batch failed; retrying from the checkpoint');
  }

  metrics(): RelayMetrics {
    return { ...this.counters };
  }

  /** Publishes the batch pipelined on one connection (so stored in send order); resolves when all are acked. */
  private async publish(events: readonly StoredEvent[]): Promise<number> {
    const js = this.js;
    if (!js) throw new Error('the relay is not connected to NATS');
    const { subjectPrefix } = this.options;
    const half = Math.ceil(events.length / 2);
    let acked = 0;
    const acks = await Promise.all(events.map(async (event) => {
      const ack = await js.publish(subjectOf(subjectPrefix, event), ENCODER.encode(JSON.stringify(toEnvelope(event))), { msgID: msgIdOf(event) });
      if ((acked += 1) === half) crashPoint('relay.mid_publish');
      return ack;
    }));
    return this.checkAcks(events, acks);
  }

  /** Counts duplicates; an ack out of sequence means JetStream holds this batch in another order than sent. */
  private checkAcks(events: readonly StoredEvent[], acks: readonly PubAck[]): number {
    const { stream, logger } = this.options;
    let duplicates = 0;
    acks.forEach((ack, i) => {
      if (ack.stream !== stream) throw new Error(`subject captured by JetStream stream ${ack.stream}, not ${stream}`);
      if (ack.duplicate) duplicates += 1;
      if (ack.seq <= this.lastSeq) {
        this.counters.order_violations += 1;
        logger.error({ position: events[i]!.globalPosition, seq: ack.seq, previous: this.lastSeq }, 'relay ack out of order');
      }
      this.lastSeq = ack.seq;
    });
    return duplicates;
  }
}
