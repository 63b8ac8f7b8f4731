import { codePointLength, codePointToUnit, isBmpOnly } from './code-points';
import { PrefixSha256 } from './sha256';

/**
 * A long text held as a list of chunks, for folds that edit it many times: an edit rebuilds only the
 * chunks it touches, and the SHA-256 of the whole text resumes from the hash state before the first
 * changed chunk (the digest is exactly sha256Hex of the joined text; only the unchanged prefix is not
 * hashed again). Chunks are UTF-16 slices that never split a surrogate pair.
 */

/** Texts are cut into chunks of this many units; an edited run of up to twice as many stays one chunk. */
export const TEXT_CHUNK_UNITS = 16_384;

/** Old chunks [from, from + deleteCount) were replaced by `insert` (the layout a storage rewrite follows). */
export interface ChunkSplice {
  from: number;
  deleteCount: number;
  insert: string[];
  /**
   * When the run keeps its chunk count: which inserted chunks are the very chunk already at that index
   * (a transaction's edits far apart leave the chunks between them as they were; a store skips them).
   */
  same?: boolean[];
}

interface Chunk {
  text: string;
  /** Code points in `text`. */
  cps: number;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function split(text: string, size: number): Chunk[] {
  const out: Chunk[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + size, text.length);
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    const piece = text.slice(start, end);
    out.push({ text: piece, cps: codePointLength(piece) });
    start = end;
  }
  return out;
}

export class ChunkedText {
  private chunks: Chunk[];
  private readonly hashes: PrefixSha256;
  private cpLength: number;

  private constructor(chunks: Chunk[], private readonly size: number) {
    this.chunks = chunks;
    this.cpLength = chunks.reduce((n, c) => n + c.cps, 0);
    this.hashes = new PrefixSha256();
  }

  /** `chunkUnits` other than the default only for tests that want many chunk boundaries in a short text. */
  static of(text: string, chunkUnits = TEXT_CHUNK_UNITS): ChunkedText {
    return new ChunkedText(split(text, chunkUnits), chunkUnits);
  }

  /** A text already cut into chunks (a stored layout, kept as it is so splices index its rows). */
  static ofChunks(chunks: readonly string[], chunkUnits = TEXT_CHUNK_UNITS): ChunkedText {
    return new ChunkedText(chunks.map((text) => ({ text, cps: codePointLength(text) })), chunkUnits);
  }

  /** Length in code points. */
  get length(): number {
    return this.cpLength;
  }

  get chunkCount(): number {
    return this.chunks.length;
  }

  get chunkTexts(): string[] {
    return this.chunks.map((c) => c.text);
  }

  toString(): string {
    return this.chunks.map((c) => c.text).join('');
  }

  /** SHA-256 (lowercase hex) of the UTF-8 of the whole text. */
  sha256(): string {
    return this.hashes.digest(this.chunks.map((c) => c.text));
  }

  /** The chunk holding code point `cp` (the last one for cp = length), with the code points before it. */
  private locate(cp: number): { index: number; before: number } {
    let before = 0;
    for (let i = 0; i < this.chunks.length; i++) {
      const n = this.chunks[i]!.cps;
      if (cp < before + n) return { index: i, before };
      before += n;
    }
    return { index: this.chunks.length, before };
  }

  /** Code points [start, end) (clamped) as a string, built from the chunks they lie in. */
  slice(start: number, end: number): string {
    const a = this.locate(start);
    const parts: string[] = [];
    let before = a.before;
    for (let i = a.index; i < this.chunks.length && before < end; i++) {
      const c = this.chunks[i]!;
      const bmp = c.cps === c.text.length;
      const from = codePointToUnit(c.text, Math.max(0, start - before), bmp);
      const to = codePointToUnit(c.text, Math.min(c.cps, end - before), bmp);
      parts.push(c.text.slice(from, to));
      before += c.cps;
    }
    return parts.join('');
  }

  /**
   * Replace code points [start, end) by `text`. The chunks the range touches (at least one, so an
   * insertion lands in a chunk) are joined with it and cut again; the others are kept as they are.
   */
  splice(start: number, end: number, text: string): ChunkSplice {
    if (this.chunks.length === 0) {
      this.cpLength = codePointLength(text);
      return this.replaceRun(0, 0, text);
    }
    const a = this.locate(Math.min(start, this.cpLength - 1));
    let b = a.index;
    let through = a.before + this.chunks[b]!.cps;
    while (through < end && b + 1 < this.chunks.length) through += this.chunks[++b]!.cps;
    const run = this.chunks.slice(a.index, b + 1).map((c) => c.text).join('');
    const bmp = isBmpOnly(run);
    const from = codePointToUnit(run, start - a.before, bmp);
    const to = codePointToUnit(run, end - a.before, bmp);
    const edited = run.slice(0, from) + text + run.slice(to);
    this.cpLength += codePointLength(text) - (Math.min(end, this.cpLength) - start);
    return this.replaceRun(a.index, b + 1 - a.index, edited);
  }

  /** A run of splices that can be undone together, or merged into the one splice of their chunks. */
  beginEdit(): ChunkEdit {
    return new ChunkEdit(this, this.chunkTexts);
  }

  /** Replace the whole text; chunks wholly inside the `unchangedPrefix` UTF-16 units are kept. */
  assign(text: string, unchangedPrefix: number): ChunkSplice {
    let keep = 0;
    let units = 0;
    while (keep < this.chunks.length && units + this.chunks[keep]!.text.length <= unchangedPrefix) units += this.chunks[keep++]!.text.length;
    const splice = this.replaceRun(keep, this.chunks.length - keep, text.slice(units));
    this.cpLength = this.chunks.reduce((n, c) => n + c.cps, 0);
    return splice;
  }

  /** Swap chunks [from, from + count) for `text`, cut again; the hash states after `from` are dropped. */
  private replaceRun(from: number, count: number, text: string): ChunkSplice {
    const pieces = text.length > 0 && text.length <= 2 * this.size ? [{ text, cps: codePointLength(text) }] : split(text, this.size);
    this.chunks.splice(from, count, ...pieces);
    this.hashes.invalidateFrom(from);
    return { from, deleteCount: count, insert: pieces.map((p) => p.text) };
  }
}

/**
 * Splices of one transaction. Chunks before the first one's `from` and after the last untouched tail are
 * unchanged (a splice never moves the chunks before it, nor changes how many follow it), so the
 * merged splice rewrites only the run between them.
 */
export class ChunkEdit {
  private readonly undos: { start: number; length: number; old: string }[] = [];
  private head = Infinity;
  private tail = Infinity;

  constructor(private readonly text: ChunkedText, private readonly old: readonly string[]) {}

  splice(start: number, end: number, replacement: string, old: string): void {
    const s = this.text.splice(start, end, replacement);
    this.undos.push({ start, length: codePointLength(replacement), old });
    this.head = Math.min(this.head, s.from);
    this.tail = Math.min(this.tail, this.text.chunkCount - s.from - s.insert.length);
  }

  /** Restore the text as it was before the first splice (its chunks may be cut differently). */
  undo(): void {
    for (const u of this.undos.reverse()) this.text.splice(u.start, u.start + u.length, u.old);
  }

  done(): ChunkSplice | null {
    if (!this.undos.length) return null;
    const count = this.text.chunkCount;
    const from = this.head;
    const deleteCount = this.old.length - from - this.tail;
    const insert = this.text.chunkTexts.slice(from, count - this.tail);
    if (insert.length !== deleteCount) return { from, deleteCount, insert };
    const same = insert.map((chunk, i) => chunk === this.old[from + i]);
    return same.some(Boolean) ? { from, deleteCount, insert, same } : { from, deleteCount, insert };
  }
}
