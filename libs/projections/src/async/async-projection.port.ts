import type { Sql } from '@palimpsest/store/db';
import type { StoredEvent } from '@palimpsest/store/stored-event';

/**
 * A read model that follows the log asynchronously (the projector runs it). The runner reads batches
 * with readAll (commit-safe order), and for each batch opens one transaction in which it calls
 * `apply`, then advances this projection's checkpoint compare-and-set: the batch and the checkpoint
 * commit together, so an event is applied exactly once even when the process dies between the two.
 *
 * `apply` must use unqualified table names (the online rebuild runs it with a shadow schema first on
 * the search_path) and must not commit, open transactions or read the events table itself.
 */
export interface AsyncProjection {
  /** Stable name: the checkpoint's key, the status and metrics label (`search`, `activity`). */
  readonly name: string;
  /** Bumped when the model's shape or meaning changes; a changed version is rebuilt from position 0. */
  readonly version: number;
  /** The tables this projection owns (and only it writes), in dependency order. */
  readonly tables: readonly string[];
  /**
   * The events it follows (Emmett's canHandle); absent: every event. A batch with none of them moves the
   * checkpoint alone, in one statement, without opening a transaction for `apply`.
   */
  canHandle?(event: StoredEvent): boolean;
  /** Brings the tables up to the batch (events in readAll order; skip types it does not follow). */
  apply(tx: Sql, events: readonly StoredEvent[]): Promise<void>;
}

/** What an operator sees of one asynchronous consumer (a projection or the relay), in status and /health. */
export interface ConsumerStatus {
  name: string;
  kind: 'projection' | 'relay';
  state: 'running' | 'catching_up' | 'rebuilding' | 'stopped';
  checkpoint: { xid: string; position: number };
  /** Committed events not yet handled, and the age of the oldest of them (0 when caught up). */
  lag_events: number;
  lag_seconds: number;
  /** Who holds this consumer's leader lease (host:pid), null when nobody does. */
  leader: string | null;
}
