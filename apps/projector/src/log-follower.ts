import type { ConsumerStatus } from '@palimpsest/projections/async/async-projection.port';
import { ASYNC_PROJECTIONS } from '@palimpsest/projections/async/registry';
import type { AsyncProjection } from '@palimpsest/projections/async/async-projection.port';
import type { Db } from '@palimpsest/store/db';
import { EVENTS_CHANNEL } from '@palimpsest/store/events-channel';
import type { LogConsumer } from './log-consumer';
import { projectorBatchSize } from './projector-config';
import { ProjectionRunner, type RunnerOptions } from './projection-runner';

export interface ProjectorOptions {
  /** Default: every registered asynchronous projection (ASYNC_PROJECTIONS). */
  projections?: readonly AsyncProjection[];
  /** Other log consumers run beside the projections (the NATS relay). */
  consumers?: readonly LogConsumer[];
  runner?: Partial<RunnerOptions>;
}

/**
 * What the projector does, without Nest (LogTransport runs it as a microservice): starts every
 * consumer, wakes them all on LISTEN (the wake-ups appends send after commit) and when a lost listener
 * connection is back, and stops them. Consumers also poll, so a lost notification only delays them.
 */
export class LogFollower {
  private unlisten: (() => Promise<void>) | null = null;

  constructor(
    private readonly db: Db,
    readonly consumers: readonly LogConsumer[],
  ) {}

  async start(): Promise<void> {
    this.unlisten = await this.db.listen(EVENTS_CHANNEL, () => this.wakeAll(), (gap) => gap === 'resumed' && this.wakeAll());
    for (const consumer of this.consumers) await consumer.start();
  }

  async stop(): Promise<void> {
    const unlisten = this.unlisten;
    this.unlisten = null;
    await Promise.all(this.consumers.map((c) => c.stop()));
    await unlisten?.();
  }

  statuses(): Promise<ConsumerStatus[]> {
    return Promise.all(this.consumers.map((c) => c.status()));
  }

  private wakeAll(): void {
    for (const consumer of this.consumers) consumer.wake();
  }
}

/** One runner per projection (batch size from PALIMPSEST_PROJECTOR_BATCH_SIZE unless given), plus the given consumers. */
export function projectorFollower(db: Db, opts: ProjectorOptions = {}): LogFollower {
  const runner = { batchSize: projectorBatchSize(), ...opts.runner };
  const runners = (opts.projections ?? ASYNC_PROJECTIONS).map((p) => new ProjectionRunner(db, p, runner));
  return new LogFollower(db, [...runners, ...(opts.consumers ?? [])]);
}
