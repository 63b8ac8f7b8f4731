import { Server, type CustomTransportStrategy } from '@nestjs/microservices';
import type { ConsumerStatus } from '@palimpsest/projections/async/async-projection.port';
import type { LogConsumer } from './log-consumer';
import type { RunningProcessor } from './processor-slot';

type TransportEvents = { error: (error: unknown) => void };

/**
 * The projector's Nest transport: instead of a broker, the event log. Its one consumer (LogConsumer)
 * follows the log through the store's gap-safe reader for its processors (each projection, the relay),
 * each with its own checkpoint and leader lease, woken by LISTEN, polling as the fallback.
 */
export class LogTransport extends Server<TransportEvents> implements CustomTransportStrategy {
  private readonly errorListeners: Array<(error: unknown) => void> = [];

  constructor(private readonly consumer: LogConsumer) {
    super();
  }

  async listen(callback: (error?: unknown) => void): Promise<void> {
    try {
      await this.consumer.start();
      callback();
    } catch (error) {
      callback(error);
    }
  }

  async close(): Promise<void> {
    try {
      await this.consumer.stop();
    } catch (error) {
      for (const listener of this.errorListeners) listener(error);
    }
  }

  on<K extends keyof TransportEvents>(event: K, callback: TransportEvents[K]): void {
    if (event === 'error') this.errorListeners.push(callback);
  }

  /** The processors this transport's consumer runs. */
  unwrap<T = readonly RunningProcessor[]>(): T {
    return this.consumer.processors as T;
  }

  statuses(): Promise<ConsumerStatus[]> {
    return this.consumer.statuses();
  }
}
