import { EVENTS_CHANNEL } from '@palimpsest/store/events-channel';
import type { Db } from '@palimpsest/store/db';

/**
 * Waiting for an operator: a NOTIFY on the events channel for the candidate's stream wakes the
 * waiter at once; polling is the fallback (notifications are a hint, not a delivery guarantee).
 */
export class StreamWaiter {
  private wake: (() => void) | null = null;
  private pending = false;

  private constructor(private readonly unlisten: () => Promise<void>) {}

  static async start(db: Db, streamId: string): Promise<StreamWaiter> {
    let waiter: StreamWaiter | null = null;
    const unlisten = await db.listen(
      EVENTS_CHANNEL,
      (payload) => {
        if (streamOf(payload) === streamId) waiter?.notify();
      },
      (gap) => {
        if (gap === 'resumed') waiter?.notify(); // a decision may have been notified while the listener was down
      },
    );
    waiter = new StreamWaiter(unlisten);
    return waiter;
  }

  private notify(): void {
    this.pending = true;
    this.wake?.();
  }

  /** Resolves on the next notification for the stream, after `ms`, or when `signal` aborts. */
  wait(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.pending || signal?.aborted) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, ms));
      const self = this;
      signal?.addEventListener('abort', done, { once: true });
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        self.wake = null;
        self.pending = false;
        resolve();
      }
      this.wake = done;
    });
  }

  stop(): Promise<void> {
    this.wake = null;
    return this.unlisten();
  }
}

function streamOf(payload: string): string | null {
  try {
    return (JSON.parse(payload) as { stream_id?: string }).stream_id ?? null;
  } catch {
    return null;
  }
}
