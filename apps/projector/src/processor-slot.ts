import type { ConsumerStatus } from '@palimpsest/projections/async/async-projection.port';
import { recordLeader, recordLeaderState, recordStopped, type LeaderState } from '@palimpsest/projections/async/consumer-leases';
import { advanceCheckpoint, advanceFencedCheckpoint, loadCheckpoint } from '@palimpsest/projections/async/projection-checkpoints';
import { consumerStatusOf } from '@palimpsest/application/queries/projector-status.handler';
import type { Db } from '@palimpsest/store/db';
import { checkpointOf, type ReadAllCheckpoint } from '@palimpsest/store/read-all';
import type { StoredEvent } from '@palimpsest/store/stored-event';
import type { ConsumerOptions } from './consumer-options';
import type { ShardLease, ShardLeases } from './leader-lease';
import { CheckpointMoved, LeaseFenced, type LogProcessor, type ProcessorBatch } from './log-processor';

/** A processor as its consumer runs it, for status and tests. */
export interface RunningProcessor {
  readonly name: string;
  readonly kind: ConsumerStatus['kind'];
  /** Whether this instance leads the processor now. */
  readonly leading: boolean;
  status(): Promise<ConsumerStatus>;
}

/**
 * What the consumer keeps per processor (one shard): its lease (given by the consumer, which balances
 * the shards across the processes that are up), its checkpoint as last committed, its recorded state,
 * and when it may next be tried (a failed batch's pause).
 */
export class ProcessorSlot implements RunningProcessor {
  private lease: ShardLease | null = null;
  private state: LeaderState | null = null;
  private paused = false;
  /** Null until loaded on lead, and again after a failure (reloaded: another instance may have moved it). */
  checkpoint: ReadAllCheckpoint | null = null;
  /** performance.now() before which the slot is not tried (nor offered a lease). */
  retryAt = 0;
  private widened: number | null = null;

  constructor(
    private readonly db: Db,
    readonly processor: LogProcessor,
    private readonly opts: ConsumerOptions,
    private readonly leases: ShardLeases,
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

  /**
   * Events to read for its next batch: batchSize, or more while it catches up (pageAfter). Its first page
   * since it took the lead is a wide one: after a start or a takeover it is likely behind, and a page
   * that comes back short costs no more than a small one.
   */
  get pageSize(): number {
    return this.widened ?? (this.widens ? this.opts.catchUpBatchSize : this.batchSize);
  }

  /** Its page size after a page of `read` events asked for `limit`: catchUpBatchSize after a full one (while it widens), else batchSize. */
  pageAfter(read: number, limit: number): number {
    return read >= limit && this.widens ? this.opts.catchUpBatchSize : this.batchSize;
  }

  private get widens(): boolean {
    return this.processor.widensPages === true && this.processor.batchSize === undefined;
  }

  /** A failed batch gave up its lease: it wants it back as soon as its pause ends (not at the next balance). */
  get retryDue(): boolean {
    return this.paused && performance.now() >= this.retryAt;
  }

  /** Not leading and not pausing: the consumer may give it a lease (then it stands by until the next balance). */
  wantsLease(now: number): boolean {
    if (this.lease !== null || now < this.retryAt) return false;
    this.paused = false;
    return true;
  }

  status(): Promise<ConsumerStatus> {
    return consumerStatusOf(this.db, { name: this.name, kind: this.kind }, this.opts.identity);
  }

  /** Starts leading with `lease` (just acquired): recorded for status. Never throws. */
  async lead(lease: ShardLease): Promise<void> {
    try {
      await recordLeader(this.db, this.name, this.kind, this.opts.identity, lease.backendPid);
    } catch (error) {
      await this.leases.release(lease).catch(() => undefined);
      this.opts.onError(error, this.name);
      this.retryAt = performance.now() + this.opts.retryMs;
      return;
    }
    this.lease = lease;
    this.paused = false;
    this.state = 'running';
    this.processor.leading?.(true);
  }

  /** Leads (its lease not found taken over), is not pausing and knows its checkpoint: ready for a batch. Never throws. */
  async ready(now: number): Promise<boolean> {
    if (now < this.retryAt || !this.lease) return false;
    try {
      if (!this.leases.holds(this.lease)) {
        this.dropped(); // taken over, or not renewed: another instance may lead it now
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

  /** Hands the processor `events`, read after its checkpoint (a page of at most `limit`). Never throws. */
  async handle(events: readonly StoredEvent[], limit = this.pageSize): Promise<void> {
    const from = this.checkpoint!;
    try {
      if (events.length > 0) this.checkpoint = await this.commitBatch(events, from);
      this.widened = this.pageAfter(events.length, limit);
      await this.enter(events.length >= limit ? 'catching_up' : 'running');
    } catch (error) {
      await this.fail(error);
    }
  }

  /**
   * A failed batch (or the read of its page, or its checkpoint): reports it (unless another instance moved
   * the checkpoint: it leads now) and gives up the lease, so another instance may take over; this one
   * tries again from the checkpoint after retryMs. The other processors are not paused.
   */
  async fail(error: unknown): Promise<void> {
    if (!(error instanceof CheckpointMoved)) {
      if (this.processor.failed && !(error instanceof LeaseFenced)) this.processor.failed(error);
      else this.opts.onError(error, this.name);
    }
    this.retryAt = performance.now() + this.opts.retryMs;
    this.paused = true;
    await this.giveUp(() => undefined); // its connection may be what failed
  }

  /** Stops leading: the lease released, consumer_leases saying stopped. */
  async giveUp(onError = (error: unknown) => this.opts.onError(error, this.name)): Promise<void> {
    const lease = this.lease;
    this.dropped();
    if (!lease) return;
    try {
      await recordStopped(this.db, this.name, this.opts.identity);
    } catch (error) {
      onError(error);
    } finally {
      await this.leases.release(lease).catch(onError);
    }
  }

  private async commitBatch(events: readonly StoredEvent[], from: ReadAllCheckpoint): Promise<ReadAllCheckpoint> {
    const to = checkpointOf(events[events.length - 1]!);
    const token = this.lease!.token;
    let committed = false;
    const batch: ProcessorBatch = {
      from,
      to,
      commit: async (sql = this.db) => {
        if (committed) throw new Error(`${this.name} committed its batch twice`);
        if (token === null) {
          if (!(await advanceCheckpoint(sql, this.name, from, to, events.length))) throw new CheckpointMoved(this.name);
        } else {
          const outcome = await advanceFencedCheckpoint(sql, this.name, from, to, events.length, token);
          if (outcome === 'fenced') throw new LeaseFenced(this.name, token);
          if (outcome === 'moved') throw new CheckpointMoved(this.name);
        }
        committed = true;
      },
    };
    await this.processor.handle(events, batch);
    if (!committed) throw new Error(`${this.name} handled a batch without committing its checkpoint`);
    return to;
  }

  private dropped(): void {
    if (this.lease) this.processor.leading?.(false);
    this.lease = null;
    this.state = null;
    this.checkpoint = null;
    this.widened = null;
  }

  private async enter(state: LeaderState): Promise<void> {
    if (this.state === state || !this.lease) return;
    await recordLeaderState(this.db, this.name, this.opts.identity, state);
    this.state = state;
  }
}
