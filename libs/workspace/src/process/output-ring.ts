/**
 * The last `capacity` bytes a process wrote, addressed by absolute byte offsets since it started: a reader
 * keeps a cursor, and when the ring has overtaken it the read starts at the oldest byte still held and
 * says how many bytes it skipped.
 */
export interface RingRead {
  bytes: Buffer;
  /** Absolute offset to pass next time. */
  nextCursor: number;
  /** Bytes between the cursor asked for and the oldest byte still held (0: nothing lost). */
  skipped: number;
}

/** The first allocation of a ring that is written to; it doubles up to its capacity. */
const FIRST_BYTES = 4096;

export class OutputRing {
  /**
   * Grows with what is written until it holds `capacity` bytes (a run that writes little, or nothing, never
   * allocates the whole ring: two 256 KB buffers a run were most of the service's garbage). Until it is
   * full the ring has not wrapped, so a byte's place in it is its absolute offset.
   */
  private buffer = Buffer.alloc(0);
  /** Absolute offset one past the last byte written. */
  private end = 0;

  constructor(readonly capacity: number) {}

  /** Bytes written since the start. */
  get written(): number {
    return this.end;
  }

  /** The oldest absolute offset still held. */
  get start(): number {
    return Math.max(0, this.end - this.capacity);
  }

  append(chunk: Buffer): void {
    const kept = chunk.length > this.capacity ? chunk.subarray(chunk.length - this.capacity) : chunk;
    const from = this.end + chunk.length - kept.length;
    this.reserve(from + kept.length);
    let at = from % this.capacity;
    let copied = 0;
    while (copied < kept.length) {
      const n = Math.min(kept.length - copied, this.capacity - at);
      kept.copy(this.buffer, at, copied, copied + n);
      copied += n;
      at = (at + n) % this.capacity;
    }
    this.end += chunk.length;
  }

  /** Room for absolute offsets below `upTo`: the whole ring once it would wrap. */
  private reserve(upTo: number): void {
    if (this.buffer.length === this.capacity || upTo <= this.buffer.length) return;
    const size = upTo >= this.capacity ? this.capacity : Math.min(this.capacity, Math.max(upTo, FIRST_BYTES, this.buffer.length * 2));
    const grown = Buffer.alloc(size);
    this.buffer.copy(grown, 0, 0, this.end);
    this.buffer = grown;
  }

  /**
   * Up to `max` bytes from `cursor` (clamped to what is held; a cursor past the end reads nothing). When
   * they lie in one piece of the ring they are a view of it, valid until the next append: read them at once.
   */
  read(cursor: number, max: number): RingRead {
    const from = Math.min(Math.max(cursor, this.start), this.end);
    const skipped = Math.max(0, this.start - cursor);
    const to = Math.min(this.end, from + max);
    const at = from % this.capacity;
    if (at + (to - from) <= this.capacity) return { bytes: this.buffer.subarray(at, at + (to - from)), nextCursor: to, skipped };
    const out = Buffer.allocUnsafe(to - from);
    const first = this.capacity - at;
    this.buffer.copy(out, 0, at, this.capacity);
    this.buffer.copy(out, first, 0, to - from - first);
    return { bytes: out, nextCursor: to, skipped };
  }

  /** Everything held, oldest first (a view, as read says). */
  held(): Buffer {
    return this.read(this.start, this.capacity).bytes;
  }
}
