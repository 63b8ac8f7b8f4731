import { Server, type CustomTransportStrategy } from '@nestjs/microservices';
import type { ConsumerStatus } from '@palimpsest/projections/async/async-projection.port';
import type { LogConsumer } from './log-consumer';
import type { LogFollower } from './log-follower';

type TransportEvents = { error: (error: unknown) => void };

/**
 * The projector's Nest transport: instead of a broker, the event log. Its consumers (each projection,
 * the relay) follow the log through the store's gap-safe reader with their own checkpoints and leader
 * leases, woken by LISTEN, polling as the fallback (LogFollower).
 */
export class LogTransport extends Server<TransportEvents> implements CustomTransportStrategy {
  private readonly errorListeners: Array<(error: unknown) => void> = [];

  constructor(private readonly follower: LogFollower) {
    super();
  }

  async listen(callback: (error?: unknown) => void): Promise<void> {
    try {
      await this.follower.start();
      callback();
    } catch (error) {
      callback(error);
    }
  }

  async close(): Promise<void> {
    try {
      await this.follower.stop();
    } catch (error) {
      for (const listener of this.errorListeners) listener(error);
    }
  }

  on<K extends keyof TransportEvents>(event: K, callback: TransportEvents[K]): void {
    if (event === 'error') this.errorListeners.push(callback);
  }

  /** The consumers this transport runs. */
  unwrap<T = readonly LogConsumer[]>(): T {
    return this.follower.consumers as T;
  }

  statuses(): Promise<ConsumerStatus[]> {
    return this.follower.statuses();
  }
}
