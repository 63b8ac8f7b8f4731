import type { AsyncProjection, ConsumerStatus } from '@palimpsest/projections/async/async-projection.port';
import { catchUp } from '@palimpsest/projections/async/catch-up';
import { leaderIdentity, recordLeader, recordLeaderState, recordStopped, type LeaderState } from '@palimpsest/projections/async/consumer-leases';
import type { Db } from '@palimpsest/store/db';
import { consumerStatusOf } from '@palimpsest/application/queries/projector-status.handler';
import { crashPoint } from '@palimpsest/testing/crash-point';
import { tryLeaderLease, type LeaderLease } from './leader-lease';
import type { LogConsumer } from './log-consumer';

export interface RunnerOptions {
  /** Events per batch (one transaction each). */
  batchSize: number;
  /** Batches per round; a round that used them all leaves a backlog (catching_up). */
  batchesPerRound: number;
  /** Idle: look at the log this often even without a wake-up (a lost NOTIFY, another machine's writers). */
  pollMs: number;
  /** Not the leader: try the lease again this often. */
  leaseRetryMs: number;
  /** Leading: check that the lease's connection is still there at most this often. */
  leaseCheckMs: number;
  identity: string;
  onError(error: unknown, consumer: string): void;
}

export const DEFAULT_RUNNER_OPTIONS: RunnerOptions = {
  batchSize: 500,
  batchesPerRound: 20,
  pollMs: 1_000,
  leaseRetryMs: 1_000,
  leaseCheckMs: 1_000,
  identity: leaderIdentity(),
  onError: () => undefined,
};

/**
 * Runs one asynchronous projection: while it holds the projection's leader lease, it applies every
 * committed event in batches through catchUp (the batch and the checkpoint in one transaction, compare-
 * and-set), then waits for a wake-up or the poll. Without the lease it stands by and retries.
 */
export class ProjectionRunner implements LogConsumer {
  readonly kind = 'projection';
  private readonly opts: RunnerOptions;
  private readonly applied: AsyncProjection;
  private lease: LeaderLease | null = null;
  private state: LeaderState | null = null;
  private loop: Promise<void> | null = null;
  private stopping = false;
  private woken = false;
  private wakeUp: (() => void) | null = null;
  private leaseCheckedAt = 0;

  constructor(
    private readonly db: Db,
    private readonly projection: AsyncProjection,
    opts: Partial<RunnerOptions> = {},
  ) {
    this.opts = { ...DEFAULT_RUNNER_OPTIONS, ...opts };
    this.applied = {
      ...projection,
      apply: async (tx, events) => {
        await projection.apply(tx, events);
        crashPoint('projector.after_apply'); // opt-in: dies with the batch applied, its checkpoint not yet committed
      },
    };
  }

  get name(): string {
    return this.projection.name;
  }

  /** Whether this instance leads the projection now. */
  get leading(): boolean {
    return this.lease !== null;
  }

  async start(): Promise<void> {
    this.stopping = false;
    this.loop ??= this.run();
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    this.loop = null;
  }

  async status(): Promise<ConsumerStatus> {
    return consumerStatusOf(this.db, { name: this.name, kind: this.kind }, this.opts.identity);
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        if (!(await this.holdLease())) {
          await this.idle(this.opts.leaseRetryMs, false); // a standby ignores wake-ups: the leader follows them
          continue;
        }
        const drained = await this.round();
        if (drained) await this.idle(this.opts.pollMs);
      } catch (error) {
        this.opts.onError(error, this.name);
        await this.dropLeaseIfLost();
        await this.idle(this.opts.pollMs);
      }
    }
    await this.giveUp();
  }

  /** One round of batches; true when it reached the end of what is committed. */
  private async round(): Promise<boolean> {
    const { batchSize, batchesPerRound } = this.opts;
    this.woken = false;
    const result = await catchUp(this.db, this.applied, { batchSize, maxBatches: batchesPerRound });
    const drained = !result.owned || result.batches < batchesPerRound;
    await this.enter(drained ? 'running' : 'catching_up');
    return drained;
  }

  private async holdLease(): Promise<boolean> {
    if (this.lease && performance.now() - this.leaseCheckedAt > this.opts.leaseCheckMs) await this.dropLeaseIfLost();
    if (this.lease) return true;
    const lease = await tryLeaderLease(this.db, this.name);
    if (!lease) return false;
    try {
      await recordLeader(lease.sql, this.name, this.kind, this.opts.identity, lease.onLeaseSession);
    } catch (error) {
      await lease.release();
      throw error;
    }
    this.lease = lease;
    this.state = 'running';
    this.leaseCheckedAt = performance.now();
    return true;
  }

  private async dropLeaseIfLost(): Promise<void> {
    if (!this.lease) return;
    this.leaseCheckedAt = performance.now();
    if (await this.lease.alive()) return;
    await this.lease.release();
    this.lease = null;
    this.state = null;
  }

  private async enter(state: LeaderState): Promise<void> {
    if (this.state === state || !this.lease) return;
    await recordLeaderState(this.lease.sql, this.name, this.opts.identity, state);
    this.state = state;
  }

  private async giveUp(): Promise<void> {
    const lease = this.lease;
    this.lease = null;
    this.state = null;
    if (!lease) return;
    try {
      await recordStopped(lease.sql, this.name, this.opts.identity);
    } catch (error) {
      this.opts.onError(error, this.name);
    } finally {
      await lease.release();
    }
  }

  /** Waits `ms`, or less when stopped or (wakeable) woken: a wake-up during the round just finished counts. */
  private async idle(ms: number, wakeable = true): Promise<void> {
    if (this.stopping || (wakeable && this.woken)) {
      this.woken = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(finish, ms);
      function finish() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        if (wakeable || this.stopping) finish();
      };
    });
    this.wakeUp = null;
    this.woken = false;
  }
}
