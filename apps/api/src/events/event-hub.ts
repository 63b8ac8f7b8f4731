import { EVENTS_CHANNEL, type AppendNotification } from '@palimpsest/store/events-channel';
import type { Db } from '@palimpsest/store/db';

/**
 * One LISTEN for the whole gateway, fanned out by stream id. A notification is only a wake-up: the
 * streams read the store themselves, so a lost notification delays an event (until the next
 * heartbeat's read) and never drops it. A wake carries the append it announces, or nothing when the
 * listener came back after a gap (whatever was announced meanwhile is lost: read now).
 */
type Wake = (append?: AppendNotification) => void;

export class EventHub {
  private readonly wakers = new Map<string, Set<Wake>>();
  private listening: Promise<() => Promise<void>> | undefined;

  constructor(private readonly db: Db) {}

  /** Resolves once LISTEN is in effect, so a read started after it cannot miss a commit. */
  async subscribe(streamId: string, wake: Wake): Promise<() => void> {
    this.listening ??= this.db.listen(
      EVENTS_CHANNEL,
      (payload) => this.notify(payload),
      (gap) => {
        if (gap === 'resumed') this.wakeAll(); // what was notified meanwhile is lost: every stream reads now
      },
    );
    try {
      await this.listening;
    } catch (error) {
      this.listening = undefined;
      throw error;
    }
    let wakers = this.wakers.get(streamId);
    if (!wakers) this.wakers.set(streamId, (wakers = new Set()));
    wakers.add(wake);
    return () => {
      wakers.delete(wake);
      if (wakers.size === 0 && this.wakers.get(streamId) === wakers) this.wakers.delete(streamId);
    };
  }

  async stop(): Promise<void> {
    const listening = this.listening;
    this.listening = undefined;
    if (listening) await (await listening.catch(() => async () => undefined))();
  }

  private wakeAll(): void {
    for (const wakers of this.wakers.values()) for (const wake of wakers) wake();
  }

  private notify(payload: string): void {
    let append: AppendNotification;
    try {
      append = JSON.parse(payload) as AppendNotification;
    } catch {
      return; // not an append notification
    }
    for (const wake of this.wakers.get(append.stream_id) ?? []) wake(append);
  }
}
