import type { ServerResponse } from 'node:http';
import type { Sql } from '@palimpsest/store/db';
import { readStream } from '@palimpsest/store/read-stream';
import type { StoredEvent } from '@palimpsest/store/stored-event';

const BATCH = 200;

function frame(event: StoredEvent): string {
  const data = {
    global_position: event.globalPosition,
    stream_id: event.streamId,
    stream_version: event.streamVersion,
    type: event.type,
    schema_version: event.schemaVersion,
    recorded_at: event.recordedAt,
    data: event.data,
    metadata: event.metadata,
  };
  // JSON.stringify escapes CR and LF, so the payload is one SSE data line.
  return `id: ${event.globalPosition}\nevent: ${event.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** One client's stream: woken by notifications and heartbeats, it sends what the store holds after its cursor. */
export class SseStream {
  private reading = false;
  private again = false;
  private closed = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly onCloseCallbacks: (() => void)[] = [];

  constructor(
    private readonly db: Sql,
    private readonly streamId: string,
    private version: number,
    private readonly res: ServerResponse,
    private readonly heartbeatMs: number,
    private readonly onError: (error: unknown) => void,
  ) {
    res.once('close', () => this.close());
  }

  get isClosed(): boolean {
    return this.closed;
  }

  onClose(callback: () => void): void {
    if (this.closed) callback();
    else this.onCloseCallbacks.push(callback);
  }

  open(): void {
    if (this.closed) return;
    this.res.statusCode = 200;
    this.res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    this.res.setHeader('Cache-Control', 'no-cache, no-transform');
    this.res.setHeader('X-Accel-Buffering', 'no');
    this.res.flushHeaders();
    this.res.write('retry: 2000\n\n');
    this.heartbeat = setInterval(() => {
      this.res.write(`: heartbeat ${new Date().toISOString()}\n\n`);
      this.wake(); // also the fallback for a notification lost while the listener reconnected
    }, this.heartbeatMs);
    this.wake();
  }

  wake(): void {
    if (this.closed) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    void this.pump();
  }

  close(comment?: string): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    if (!this.res.writableEnded) {
      if (comment && this.res.headersSent) this.res.write(`: ${comment}\n\n`);
      this.res.end();
    }
    this.onCloseCallbacks.splice(0).forEach((callback) => callback());
  }

  private async pump(): Promise<void> {
    this.reading = true;
    try {
      do {
        this.again = false;
        await this.sendBacklog();
      } while (this.again && !this.closed);
    } catch (error) {
      if (!this.closed) this.onError(error);
      this.close('stream error; reconnect with Last-Event-ID');
    } finally {
      this.reading = false;
    }
  }

  private async sendBacklog(): Promise<void> {
    for (;;) {
      const events = await readStream(this.db, this.streamId, { fromVersion: this.version + 1, limit: BATCH });
      for (const event of events) {
        if (this.closed) return;
        if (!this.res.write(frame(event))) await this.drained();
        this.version = event.streamVersion;
      }
      if (events.length < BATCH) return;
    }
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.once('drain', done);
      this.res.once('close', done);
    });
  }
}
