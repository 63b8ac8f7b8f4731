import type { Socket } from 'node:net';
import createSubscriber, { type Subscriber } from 'pg-listen';
import type { ListenGap } from '../db';
import type { PostgresTimeouts } from './pg-settings';

interface Listener {
  onPayload(payload: string): void;
  onGap?: (gap: ListenGap) => void;
}

interface Channel {
  listeners: Set<Listener>;
  ready: Promise<void>;
}

/** How often the LISTEN connection proves it is alive: a silently dead socket is noticed within this plus the query timeout. */
const CHECK_EVERY_MS = 2_000;
const CHECK_TIMEOUT_MS = 2_000;

/**
 * One LISTEN connection per Db (pg-listen), opened on first use; it reconnects and re-LISTENs until
 * close(). Notifications sent while it is down are lost, so every listener is told: `lost` when the
 * connection fails, `resumed` once it listens again; each then re-reads what notifications keep fresh.
 */
export class PgListener {
  private subscriber: Promise<Subscriber> | undefined;
  private readonly channels = new Map<string, Channel>();
  private down = false;
  private closing = false;

  constructor(
    /** Where to connect: the URI, and the socket factory that picks the primary among several servers. */
    private readonly target: { connectionString: string; stream?: () => Socket },
    private readonly timeouts: PostgresTimeouts,
    private readonly onError: (error: Error) => void,
  ) {}

  async listen(channel: string, listener: Listener): Promise<() => Promise<void>> {
    const subscriber = await this.shared();
    let entry = this.channels.get(channel);
    if (!entry) {
      const listeners = new Set<Listener>();
      subscriber.notifications.on(channel, (payload: unknown) => {
        for (const l of listeners) l.onPayload(payload === undefined ? '' : String(payload));
      });
      const ready = Promise.resolve(subscriber.listenTo(channel)).then(() => undefined);
      const created: Channel = { listeners, ready };
      entry = created;
      this.channels.set(channel, created);
      ready.catch(() => {
        if (this.channels.get(channel) === created) this.channels.delete(channel);
        subscriber.notifications.removeAllListeners(channel);
      });
    }
    await entry.ready; // a second listener on the channel also waits until LISTEN is in effect
    const mine: Listener = { ...listener };
    const { listeners } = entry;
    const subscribed = entry;
    listeners.add(mine);
    let done = false;
    return async () => {
      if (done) return;
      done = true;
      listeners.delete(mine);
      if (listeners.size > 0 || this.channels.get(channel) !== subscribed || this.closing) return;
      this.channels.delete(channel);
      subscriber.notifications.removeAllListeners(channel);
      try {
        await subscriber.unlisten(channel);
      } catch (error) {
        // The listener connection is down (pg-listen is reconnecting): nothing is delivered to a
        // channel without callbacks, so unsubscribing must not fail a shutdown over it.
        this.onError(error as Error);
      }
    };
  }

  async close(): Promise<void> {
    this.closing = true;
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    this.channels.clear();
    if (!subscriber) return;
    try {
      await (await subscriber).close();
    } catch {
      // never connected, or already gone: nothing left to close
    }
  }

  private shared(): Promise<Subscriber> {
    this.subscriber ??= this.connect();
    return this.subscriber;
  }

  private connect(): Promise<Subscriber> {
    const subscriber = createSubscriber(
      {
        ...this.target,
        application_name: 'palimpsest-listen',
        connectionTimeoutMillis: this.timeouts.connectTimeoutMs,
        query_timeout: CHECK_TIMEOUT_MS,
        keepAliveInitialDelayMillis: this.timeouts.keepAliveMs,
      },
      {
        parse: (payload: string) => payload,
        serialize: (payload: unknown) => String(payload),
        paranoidChecking: CHECK_EVERY_MS,
        retryTimeout: 0, // keep retrying until close()
        retryInterval: (attempt: number) => (this.closing ? 0 : Math.min(100 * 2 ** attempt, 500)),
      },
    );
    subscriber.events.on('error', (error: Error) => {
      if (!this.closing) this.onError(error);
    });
    // pg-listen's reconnect loop does not look at close(): stop it from inside (a throwing "reconnect"
    // listener ends the loop) and end a connection that completed after close, or the process stays up.
    subscriber.events.on('reconnect', () => {
      if (this.closing) throw new Error('the database was closed: no more reconnecting');
      if (!this.down) {
        this.down = true;
        this.tell('lost');
      }
    });
    subscriber.events.on('connected', () => {
      if (this.closing) {
        void subscriber.close().catch(() => undefined);
        return;
      }
      if (this.down) {
        this.down = false; // pg-listen emits 'connected' after every channel is LISTENed again
        this.tell('resumed');
      }
    });
    return subscriber.connect().then(
      () => subscriber,
      async (error: unknown) => {
        this.subscriber = undefined;
        await subscriber.close().catch(() => undefined);
        throw error;
      },
    );
  }

  private tell(gap: ListenGap): void {
    for (const { listeners } of this.channels.values()) {
      for (const listener of listeners) {
        try {
          listener.onGap?.(gap);
        } catch (error) {
          this.onError(error as Error);
        }
      }
    }
  }
}
