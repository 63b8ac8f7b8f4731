import type { ConsumerStatus } from '@palimpsest/projections/async/async-projection.port';
import type { Db } from '@palimpsest/store/db';
import { LogConsumer } from '../log-consumer';
import { checkedOptions, type NatsRelayOptions } from './relay-config';
import { RelayProcessor, type RelayMetrics } from './relay-processor';

export type { RelayMetrics } from './relay-processor';

const RETRY_AFTER_ERROR_MS = 1000;

/**
 * The relay alone (its own process, run-relay.ts; the projector runs RelayProcessor in its one
 * consumer instead): a log consumer with the relay as its only processor. One instance leads (the
 * leader lease, recorded in consumer_leases for status); the others wait to take over.
 */
export class NatsRelay {
  readonly options: NatsRelayOptions;
  private readonly processor: RelayProcessor;
  private readonly consumer: LogConsumer;

  constructor(db: Db, options: Partial<NatsRelayOptions> & Pick<NatsRelayOptions, 'url' | 'logger'>) {
    this.options = checkedOptions(options);
    this.processor = new RelayProcessor(this.options);
    const { batchSize, pollIntervalMs } = this.options;
    this.consumer = new LogConsumer(db, [this.processor], {
      batchSize,
      pollMs: pollIntervalMs,
      leaseRetryMs: pollIntervalMs,
      retryMs: RETRY_AFTER_ERROR_MS,
      identity: this.processor.holder,
    });
  }

  get holder(): string {
    return this.processor.holder;
  }

  /** Connects, creates or updates the stream, and starts relaying (or waiting to lead). */
  start(): Promise<void> {
    return this.consumer.start();
  }

  /** Finishes the batch in flight (its checkpoint included), releases the lead and disconnects. */
  stop(): Promise<void> {
    return this.consumer.stop();
  }

  /** Checkpoint, lag, state and leader as `projections status` shows them (consumer_leases, migration 0016). */
  async status(): Promise<ConsumerStatus> {
    const [status] = await this.consumer.statuses();
    return status!;
  }

  metrics(): RelayMetrics {
    return this.processor.metrics();
  }
}
