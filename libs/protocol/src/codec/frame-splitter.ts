/**
 * Splits a byte stream into LF-terminated frames without ever holding more than `limit` bytes of
 * one frame. A frame longer than the limit is not kept: the splitter discards its bytes up to the
 * next LF (or the end of the stream) as they arrive, then reports it once as `oversized` and stops,
 * ignoring every byte after it. A final frame without LF is reported at end() like any other.
 */
export type FrameEvent = { kind: 'frame'; bytes: Uint8Array } | { kind: 'oversized'; limit: number };

const LF = 0x0a;

export class FrameSplitter {
  private pending: Uint8Array[] = [];
  private buffered = 0;
  private draining = false;
  private stopped = false;

  constructor(readonly limit: number) {}

  /** True once an oversized frame has been reported: nothing more comes out. */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** Bytes of the current unfinished frame held in memory (never more than `limit`). */
  get bufferedBytes(): number {
    return this.buffered;
  }

  push(chunk: Uint8Array): FrameEvent[] {
    const events: FrameEvent[] = [];
    let start = 0;
    while (!this.stopped && start < chunk.length) {
      const lf = chunk.indexOf(LF, start);
      const end = lf === -1 ? chunk.length : lf;
      if (!this.draining && this.buffered + (end - start) > this.limit) this.beginDraining();
      if (this.draining) {
        if (lf !== -1) events.push(this.stop());
        break;
      }
      if (lf === -1) {
        this.pending.push(chunk.slice(start, end));
        this.buffered += end - start;
        break;
      }
      events.push({ kind: 'frame', bytes: this.take(chunk.subarray(start, end)) });
      start = lf + 1;
    }
    return events;
  }

  /** End of stream: the unterminated last frame, or the oversized report if one was being drained. */
  end(): FrameEvent[] {
    if (this.stopped) return [];
    if (this.draining) return [this.stop()];
    if (this.buffered === 0 && this.pending.length === 0) return [];
    return [{ kind: 'frame', bytes: this.take(new Uint8Array(0)) }];
  }

  private beginDraining(): void {
    this.draining = true;
    this.pending = [];
    this.buffered = 0;
  }

  private stop(): FrameEvent {
    this.stopped = true;
    this.draining = false;
    return { kind: 'oversized', limit: this.limit };
  }

  private take(tail: Uint8Array): Uint8Array {
    const parts = this.pending;
    this.pending = [];
    this.buffered = 0;
    if (parts.length === 0) return tail.slice();
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, tail.length));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    out.set(tail, at);
    return out;
  }
}
