import { connect, type JetStreamClient, type NatsConnection, type PubAck } from 'nats';
import { advanceCheckpoint, loadCheckpoint } from '@palimpsest/projections/async/projection-checkpoints';
import type { ConsumerStatus } from '@palimpsest/projections/async/async-projection.port';
import { leaderIdentity, recordLeader, recordLeaderState, recordStopped } from '@palimpsest/projections/async/consumer-leases';
import { consumerStatusOf } from '@palimpsest/application/queries/projector-status.handler';
import type { Db } from '@palimpsest/store/db';
import { EVENTS_CHANNEL } from '@palimpsest/store/events-channel';
import { checkpointOf, readAll, type ReadAllCheckpoint } from '@palimpsest/store/read-all';
import type { StoredEvent } from '@palimpsest/store/stored-event';
import { ensureStream } from './jetstream-stream';
import { checkedOptions, relayOptionsFromEnv, type NatsRelayOptions, type RelayLogger } from './relay-config';
import { crashPoint } from '@palimpsest/testing/crash-point';
import { msgIdOf, subjectOf, toEnvelope } from './relay-envelope';
import { tryLeaderLease, type LeaderLease } from '../leader-lease';
import { Wakeup } from './wakeup';

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
const RETRY_AFTER_ERROR_MS = 1000;

/**
 * Publishes every committed event to JetStream, in commit-safe order (readAll), exactly once:
 * Nats-Msg-Id is the global position, so the re-publish of a tail acknowledged but not checkpointed
 * (a crash in between) is a duplicate the server drops; the checkpoint moves compare-and-set, and only
 * after every ack of its batch. One instance leads (the projector's leader lease, recorded in consumer_leases
 * for status); the others wait to take over.
 */
export class NatsRelay {
  readonly options: NatsRelayOptions;
  readonly holder = leaderIdentity();
  private nc: NatsConnection | null = null;
  private js: JetStreamClient | null = null;
  private loop: Promise<void> | null = null;
  private stopping = false;
  private unlisten: (() => Promise<void>) | null = null;
  private readonly wakeup = new Wakeup();
  private lastSeq = 0;
  /** The state last recorded in consumer_leases while leading. */
  private recorded: 'running' | 'catching_up' | null = null;
  private readonly counters: RelayMetrics = { published: 0, duplicates: 0, batches: 0, order_violations: 0, leading: false };

  constructor(
    private readonly db: Db,
    options: Partial<NatsRelayOptions> & Pick<NatsRelayOptions, 'url' | 'logger'>,
  ) {
    this.options = checkedOptions(options);
  }

  /** Connects, creates or updates the stream, and starts relaying (or waiting to lead). */
  async start(): Promise<void> {
    if (this.loop) return;
    const { url, stream, subjectPrefix, dedupeWindowMs, logger } = this.options;
    this.nc = await connect({ servers: url.split(','), name: `palimpsest-relay ${this.holder}`, maxReconnectAttempts: -1 });
    try {
      await ensureStream(await this.nc.jetstreamManager(), { stream, subjectPrefix, dedupeWindowMs });
      this.js = this.nc.jetstream();
      const wake = () => this.wakeup.fire();
      this.unlisten = await this.db.listen(EVENTS_CHANNEL, wake, wake);
    } catch (error) {
      await this.nc.close();
      this.nc = null;
      throw error;
    }
    this.stopping = false;
    this.loop = this.run();
    logger.info({ stream, subjects: `${subjectPrefix}.>`, holder: this.holder }, 'relay started');
  }

  /** Finishes the batch in flight (its checkpoint included), releases the lead and disconnects. */
  async stop(): Promise<void> {
    if (!this.loop) return;
    this.stopping = true;
    this.wakeup.fire();
    await this.loop;
    this.loop = null;
    await this.unlisten?.();
    this.unlisten = null;
    await this.nc?.drain().catch(() => this.nc?.close());
    this.nc = null;
    this.js = null;
  }

  /** Checkpoint, lag, state and leader as `projections status` shows them (consumer_leases, migration 0016). */
  status(): Promise<ConsumerStatus> {
    return consumerStatusOf(this.db, { name: this.options.checkpointName, kind: 'relay' }, this.holder);
  }

  metrics(): RelayMetrics {
    return { ...this.counters };
  }

  private async run(): Promise<void> {
    const { checkpointName, pollIntervalMs, logger } = this.options;
    while (!this.stopping) {
      let lease: LeaderLease | null = null;
      try {
        lease = await tryLeaderLease(this.db, checkpointName);
        if (!lease) {
          await this.wakeup.sleep(pollIntervalMs);
          continue;
        }
        await recordLeader(lease.sql, checkpointName, 'relay', this.holder, lease.onLeaseSession);
        this.counters.leading = true;
        logger.info({ holder: this.holder }, 'relay leads');
        await this.relayWhileLeading(lease);
        if (this.stopping) await recordStopped(lease.sql, checkpointName, this.holder);
      } catch (error) {
        logger.error({ err: error }, 'relay batch failed; retrying from the checkpoint');
        if (!this.stopping) await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_ERROR_MS));
      } finally {
        this.counters.leading = false;
        await lease?.release();
      }
    }
  }

  private async relayWhileLeading(lease: LeaderLease): Promise<void> {
    const { checkpointName, batchSize, pollIntervalMs, logger } = this.options;
    let from: ReadAllCheckpoint = await loadCheckpoint(this.db, checkpointName);
    this.lastSeq = 0;
    this.recorded = 'running'; // recordLeader's state
    let events = await readAll(this.db, { after: from, limit: batchSize });
    while (!this.stopping) {
      await this.recordState(lease, events.length === batchSize ? 'catching_up' : events.length === 0 ? 'running' : null);
      if (events.length === 0) {
        await this.wakeup.sleep(pollIntervalMs);
        if (!(await lease.alive())) return logger.warn({}, 'relay lost its leader lock');
        events = await readAll(this.db, { after: from, limit: batchSize });
        continue;
      }
      const to = checkpointOf(events[events.length - 1]!);
      // Read ahead while the acks are in flight: readAll is gap-safe whenever it runs, and nothing of
      // the next batch is sent before this one's checkpoint has moved.
      const next = readAll(this.db, { after: to, limit: batchSize });
      next.catch(() => undefined); // awaited below; a failed publish must not leave it unhandled
      const duplicates = await this.publish(events);
      crashPoint('relay.after_acks');
      if (!(await advanceCheckpoint(this.db, checkpointName, from, to, events.length))) {
        return logger.warn({ from }, 'relay checkpoint moved by another instance');
      }
      this.counters.batches += 1;
      this.counters.published += events.length - duplicates;
      this.counters.duplicates += duplicates;
      logger.info({ events: events.length, duplicates, position: to.position }, 'relay batch');
      from = to;
      events = await next;
    }
  }

  /** Tells status when the relay starts or stops having a backlog (a full batch), on a change only. */
  private async recordState(lease: LeaderLease, state: 'running' | 'catching_up' | null): Promise<void> {
    if (state === null || state === this.recorded) return;
    await recordLeaderState(lease.sql, this.options.checkpointName, this.holder, state);
    this.recorded = state;
  }

  /** Publishes the batch pipelined on one connection (so stored in send order); resolves when all are acked. */
  private async publish(events: readonly StoredEvent[]): Promise<number> {
    const js = this.js!;
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

/** The relay PALIMPSEST_NATS_* configure (docs/relay.md), or null when PALIMPSEST_NATS_URL is unset: the relay is off. */
export function natsRelayFromEnv(db: Db, env: NodeJS.ProcessEnv, logger: RelayLogger): NatsRelay | null {
  const options = relayOptionsFromEnv(env, logger);
  return options ? new NatsRelay(db, options) : null;
}
