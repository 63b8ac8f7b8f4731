import { leaderIdentity } from '@palimpsest/projections/async/consumer-leases';

export interface ConsumerOptions {
  /** Events per batch (a processor may set its own). */
  batchSize: number;
  /**
   * While a processor whose output does not depend on where its batches end (a projection) is behind
   * (its last page was full), its pages hold up to this many events (never fewer than batchSize); the
   * first page not full brings it back to batchSize. Catch-up then pays a batch's fixed cost (its transaction, its
   * checkpoint, search's one tsvector per touched target) fewer times; a processor keeping up reads small pages.
   */
  catchUpBatchSize: number;
  /** Idle: look at the log this often even without a wake-up (a lost NOTIFY, another machine's writers). */
  pollMs: number;
  /** Leading fewer shards than its share: try to take more this often (and give up those over it). */
  leaseRetryMs: number;
  /**
   * PostgreSQL: a shard lease lasts this long unless renewed (every third of it). A process that stops
   * renewing (hung, cut off) loses its shards after it; one that dies loses them at once (its backend ends).
   */
  leasePeriodMs: number;
  /** After a failed batch, retry that processor from its checkpoint this much later (default: pollMs). */
  retryMs: number;
  /**
   * Woken from idle, wait this long before reading, so appends that come close together (a command run's
   * request and exit, a publication's start and outcome) are read as one page: one read and one checkpoint
   * per processor instead of one each. The read models lag the log by this much more at most.
   */
  gatherMs: number;
  /** host:pid, as the leader is recorded and shown in status. */
  identity: string;
  onError(error: unknown, processor: string): void;
}

export const DEFAULT_CONSUMER_OPTIONS: Omit<ConsumerOptions, 'retryMs'> = {
  batchSize: 500,
  catchUpBatchSize: 5_000,
  pollMs: 1_000,
  leaseRetryMs: 1_000,
  leasePeriodMs: 10_000,
  gatherMs: 50,
  identity: leaderIdentity(),
  onError: () => undefined,
};

export function consumerOptions(opts: Partial<ConsumerOptions>): ConsumerOptions {
  const full = { ...DEFAULT_CONSUMER_OPTIONS, ...opts };
  return { ...full, retryMs: opts.retryMs ?? full.pollMs, catchUpBatchSize: Math.max(full.batchSize, full.catchUpBatchSize) };
}
