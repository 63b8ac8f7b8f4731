import { EVENTS_CHANNEL, type AppendNotification } from './events-channel';
import type { Sql } from './db';

/** Listeners learn of an append at most this much later under load (they also poll). */
const DEFAULT_MIN_INTERVAL_MS = 10;

/** A wake-up that may wait for the next one leaves at the latest this much later. */
const DEFER_LIMIT_MS = 1000;

/**
 * Wake-ups sent after commit instead of inside it. PostgreSQL serializes the commits of every
 * transaction that issued NOTIFY (a database-wide lock held through the commit's WAL flush), which
 * caps the whole write path near one commit per flush. A notification is only a hint (listeners read
 * the store themselves and poll as a fallback), so the command path commits without NOTIFY and hands
 * its appends here: at most one NOTIFY statement is in flight per process, carrying every stream
 * appended to since the previous one (the highest position per stream), as an asynchronous commit,
 * and statements start at least `minIntervalMs` apart: a wake-up after a quiet spell goes out at once,
 * under load they leave in batches (each NOTIFY is a transaction of its own, and it wakes every
 * listening backend of the database, whatever its channel). Measured on the gateway: a statement per
 * round trip cost ≈ 5 % of its throughput.
 *
 * A crash between a commit and its wake-up loses the wake-up, never the event: consumers catch up on
 * their next poll, exactly as when a listener connection is re-established.
 */
export class WakeNotifier {
  private pending = new Map<string, AppendNotification>();
  private deferred = new Map<string, AppendNotification>();
  private deferLimit: ReturnType<typeof setTimeout> | null = null;
  private flushing: Promise<void> | null = null;
  private closed = false;
  private lastSentAt = -Infinity;

  constructor(
    private readonly sql: Sql,
    private readonly channel = EVENTS_CHANNEL,
    private readonly onError: (error: unknown) => void = () => undefined,
    private readonly minIntervalMs = DEFAULT_MIN_INTERVAL_MS,
  ) {}

  /** Queue a wake-up for a committed append; never throws, never waits. */
  wake(note: AppendNotification): void {
    this.wakeAll([note]);
  }

  /** The wake-ups of one commit (several streams): queued together, so they leave in one statement. */
  wakeAll(notes: AppendNotification[]): void {
    if (this.closed || notes.length + this.deferred.size === 0) return;
    for (const note of this.takeDeferred()) newest(this.pending, note);
    for (const note of notes) newest(this.pending, note);
    this.flushing ??= this.drain();
  }

  /**
   * Wake-ups of a commit that another commit soon follows (a publication's start, before its outcome):
   * they leave with the next wake-up this process sends, so the two commits cost one NOTIFY statement,
   * and at the latest DEFER_LIMIT_MS later (or at flush).
   */
  wakeWithNext(notes: AppendNotification[]): void {
    if (this.closed || notes.length === 0) return;
    for (const note of notes) newest(this.deferred, note);
    this.deferLimit ??= setTimeout(() => this.wakeAll([]), DEFER_LIMIT_MS);
    this.deferLimit.unref?.();
  }

  /** Resolves when every wake-up queued so far, deferred ones included, has been sent (or failed). */
  async flush(): Promise<void> {
    if (this.deferred.size > 0) this.wakeAll([]);
    while (this.flushing) await this.flushing;
  }

  private takeDeferred(): AppendNotification[] {
    if (this.deferLimit) clearTimeout(this.deferLimit);
    this.deferLimit = null;
    const notes = [...this.deferred.values()];
    this.deferred = new Map();
    return notes;
  }

  /** Sends what is queued, then refuses new wake-ups. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.size > 0) {
        const wait = this.lastSentAt + this.minIntervalMs - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        this.lastSentAt = performance.now();
        const batch = [...this.pending.values()];
        this.pending = new Map();
        await this.send(batch);
      }
    } finally {
      this.flushing = null;
    }
  }

  private async send(batch: AppendNotification[]): Promise<void> {
    try {
      // set_config(…, true) applies to this statement's own implicit transaction: a NOTIFY-only
      // commit needs no durable WAL flush, so it does not wait for the disk.
      await this.sql.query(
        `SELECT set_config('synchronous_commit', 'off', true), pg_notify($1::text, n)
           FROM unnest($2::text[]) AS n`,
        [this.channel, batch.map((note) => JSON.stringify(note))],
      );
    } catch (error) {
      this.onError(error);
    }
  }
}

/** Keeps the highest position per stream: a wake-up for it covers every earlier one. */
function newest(queue: Map<string, AppendNotification>, note: AppendNotification): void {
  const queued = queue.get(note.stream_id);
  if (!queued || queued.global_position < note.global_position) queue.set(note.stream_id, note);
}
