import type { ConsumerStatus } from '@palimpsest/projections/async/async-projection.port';
import { recordLeader, recordLeaderState, recordStopped, type LeaderState } from '@palimpsest/projections/async/consumer-leases';
import { advanceCheckpoint, loadCheckpoint } from '@palimpsest/projections/async/projection-checkpoints';
import { consumerStatusOf } from '@palimpsest/application/queries/projector-status.handler';
import type { Db } from '@palimpsest/store/db';
import { checkpointOf, type ReadAllCheckpoint } from '@palimpsest/store/read-all';
import type { StoredEvent } from '@palimpsest/store/stored-event';
import type { ConsumerOptions } from './consumer-options';
import { tryLeaderLease, type LeaderLease } from './leader-lease';
import { CheckpointMoved, type LogProcessor, type ProcessorBatch } from './log-processor';

/** A processor as its consumer runs it, for status and tests. */
export interface RunningProcessor {
  readonly name: string;
  readonly kind: ConsumerStatus['kind'];
  /** Whether this instance leads the processor now. */
  readonly leading: boolean;
  status(): Promise<ConsumerStatus>;
}

/**
 * What the consumer keeps per processor: its leader lease (one per processor, so processes running
 * different processors each lead theirs), its checkpoint as last committed, its recorded state, and
 * when it may next be tried (a standby's lease retry, a failed batch's pause).
 */
export class ProcessorSlot implements RunningProcessor {
  private lease: LeaderLease | null = null;
  private state: LeaderState | null = null;
  private leaseCheckedAt = 0;
  /** Null until loaded on lead, and again after a failure (reloaded: another instance may have moved it). */
  checkpoint: ReadAllCheckpoint | null = null;
  /** performance.now() before which the slot is not tried. */
  retryAt = 0;

  constructor(
    private readonly db: Db,
    readonly processor: LogProcessor,
    private readonly opts: ConsumerOptions,
  ) {}

  get name(): string {
    return this.processor.name;
  }

  get kind(): ConsumerStatus['kind'] {
    return this.processor.kind;
  }

  get leading(): boolean {
    return this.lease !== null;
  }

  get batchSize(): number {
    return this.processor.batchSize ?? this.opts.batchSize;
  }

  status(): Promise<ConsumerStatus> {
    return consumerStatusOf(this.db, { name: this.name, kind: this.kind }, this.opts.identity);
  }

  /** Leads, is not pausing and knows its checkpoint: ready for a batch. Never throws. */
  async ready(now: number): Promise<boolean> {
    if (now < this.retryAt) return false;
    try {
      if (this.lease && now - this.leaseCheckedAt > this.opts.leaseCheckMs) await this.dropLeaseIfLost(now);
      if (!this.lease && !(await this.acquire(now))) {
        this.retryAt = now + this.opts.leaseRetryMs; // a standby ignores wake-ups: the leader follows them
        return false;
      }
      if (!this.checkpoint) {
        const { xid, position } = await loadCheckpoint(this.db, this.name);
        this.checkpoint = { xid, position };
      }
      return true;
    } catch (error) {
      await this.fail(error);
      return false;
    }
  }

  /** Hands the processor `events`, read after its checkpoint. Never throws. */
  async handle(events: readonly StoredEvent[]): Promise<void> {
    const from = this.checkpoint!;
    try {
      if (events.length > 0) this.checkpoint = await this.commitBatch(events, from);
      await this.enter(events.length >= this.batchSize ? 'catching_up' : 'running');
    } catch (error) {
      await this.fail(error);
    }
  }

  /**
   * A failed batch (or the read of its page, or its checkpoint): reports it (unless another instance moved
   * the checkpoint: it leads now) and gives up the lease, so a standby may take over; this instance tries
   * again from the checkpoint after retryMs. The other processors are not paused.
   */
  async fail(error: unknown): Promise<void> {
    if (!(error instanceof CheckpointMoved)) {
      if (this.processor.failed) this.processor.failed(error);
      else this.opts.onError(error, this.name);
    }
    this.retryAt = performance.now() + this.opts.retryMs;
    await this.giveUp(() => undefined); // its connection may be what failed
  }

  /** Stops leading: the lease released, consumer_leases saying stopped. */
  async giveUp(onError = (error: unknown) => this.opts.onError(error, this.name)): Promise<void> {
    const lease = this.lease;
    this.dropped();
    if (!lease) return;
    try {
      await recordStopped(lease.sql, this.name, this.opts.identity);
    } catch (error) {
      onError(error);
    } finally {
      await lease.release().catch(onError);
    }
  }

  private async commitBatch(events: readonly StoredEvent[], from: ReadAllCheckpoint): Promise<ReadAllCheckpoint> {
    const to = checkpointOf(events[events.length - 1]!);
    let committed = false;
    const batch: ProcessorBatch = {
      from,
      to,
      commit: async (sql = this.db) => {
        if (committed) throw new Error(`${this.name} committed its batch twice`);
        if (!(await advanceCheckpoint(sql, this.name, from, to, events.length))) throw new CheckpointMoved(this.name);
        committed = true;
      },
    };
    await this.processor.handle(events, batch);
    if (!committed) throw new Error(`${this.name} handled a batch without committing its checkpoint`);
    return to;
  }

  private async acquire(now: number): Promise<boolean> {
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
    this.leaseCheckedAt = now;
    this.processor.leading?.(true);
    return true;
  }

  private async dropLeaseIfLost(now: number): Promise<void> {
    this.leaseCheckedAt = now;
    if (!this.lease || (await this.lease.alive())) return;
    const lease = this.lease;
    this.dropped();
    await lease.release();
  }

  private dropped(): void {
    if (this.lease) this.processor.leading?.(false);
    this.lease = null;
    this.state = null;
    this.checkpoint = null;
  }

  private async enter(state: LeaderState): Promise<void> {
    if (this.state === state || !this.lease) return;
    await recordLeaderState(this.lease.sql, this.name, this.opts.identity, state);
    this.state = state;
  }
}
