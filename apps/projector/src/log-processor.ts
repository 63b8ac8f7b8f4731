import type { ConsumerKind } from '@palimpsest/projections/async/consumer-leases';
import type { Sql } from '@palimpsest/store/db';
import type { ReadAllCheckpoint } from '@palimpsest/store/read-all';
import type { StoredEvent } from '@palimpsest/store/stored-event';

/** One batch handed to a processor: the events after its checkpoint `from`, up to `to` (the last of them). */
export interface ProcessorBatch {
  readonly from: ReadAllCheckpoint;
  readonly to: ReadAllCheckpoint;
  /**
   * Moves the processor's checkpoint from `from` to `to`, compare-and-set, on `sql` (default: the
   * consumer's store). Throws CheckpointMoved when another instance moved it first, and LeaseFenced
   * when this instance's shard lease was taken over (PostgreSQL), so a transaction holding the batch's
   * writes rolls back.
   */
  commit(sql?: Sql): Promise<void>;
}

/**
 * What the log consumer (log-consumer.ts) runs: a projection (exactly once, its writes and its
 * checkpoint in one transaction) or a reactor such as the NATS relay (at least once, the checkpoint
 * after its side effects). The consumer owns the lease, the checkpoint and the wake-up; a processor
 * only handles batches, each from its own checkpoint, so one processor's failure or rebuild does not
 * move another's.
 */
export interface LogProcessor {
  /** Its checkpoint's key in projection_checkpoints, its leader lease's and its status's name. */
  readonly name: string;
  readonly kind: ConsumerKind;
  /** Its events carry their chain links (StoredEvent.chainHash): the consumer's pages read them for every processor. */
  readonly readsChainLinks?: boolean;
  /** Events per batch when not the consumer's (then fixed: its pages do not widen while it catches up). */
  readonly batchSize?: number;
  /**
   * What it makes does not depend on where its batches end (a projection: the same rows from one batch
   * or ten): while it is behind, the consumer widens its pages up to catchUpBatchSize (consumer-options.ts).
   */
  readonly widensPages?: boolean;
  /** Before the consumer starts (the relay connects to NATS); a throw fails the start. */
  open?(): Promise<void>;
  /** After the consumer stopped and gave up its leases. */
  close?(): Promise<void>;
  /** This instance starts (true) or stops (false) leading the processor. */
  leading?(lead: boolean): void;
  /** Handles events after its checkpoint, in readAll order, and calls `batch.commit` exactly once. */
  handle(events: readonly StoredEvent[], batch: ProcessorBatch): Promise<void>;
  /** A failed batch, retried from the checkpoint after a pause (default: the consumer's onError). */
  failed?(error: unknown): void;
}

/** The processor's checkpoint was moved by another instance: its batch must not count. */
export class CheckpointMoved extends Error {
  constructor(processor: string) {
    super(`the checkpoint of ${processor} was moved by another instance`);
  }
}

/**
 * The processor's shard lease was taken over (its fencing token is no longer the lease's): the checkpoint
 * update was refused, and the batch must not count (a projection's writes roll back with it).
 */
export class LeaseFenced extends Error {
  constructor(processor: string, token: string) {
    super(`${processor}: fenced (lease token ${token} was taken over); the batch rolled back and its checkpoint did not move`);
  }
}
