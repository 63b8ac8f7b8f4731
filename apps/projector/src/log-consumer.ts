import type { ConsumerStatus } from '@palimpsest/projections/async/async-projection.port';

/**
 * One follower of the event log run by the projector (LogTransport): each asynchronous projection
 * (ProjectionRunner) and the NATS relay. It keeps its own checkpoint and leader lease; the transport
 * starts it, wakes it when events were appended, and stops it.
 */
export interface LogConsumer {
  readonly name: string;
  readonly kind: ConsumerStatus['kind'];
  /** Begins following the log (returns once started, not once caught up). */
  start(): Promise<void>;
  /** Finishes the batch in progress, gives up the lease, and returns. */
  stop(): Promise<void>;
  /** New events may be committed: look now instead of at the next poll. */
  wake(): void;
  status(): Promise<ConsumerStatus>;
}
