import type { ExistingTarget } from '@palimpsest/core/target/target.state';

/** A target row as committed: everything but the text, which the cache entry holds. */
export interface TargetHead extends Omit<ExistingTarget, 'exists' | 'content'> {
  stream_version: number;
  last_position: number;
}

/**
 * Process-local cache of target texts, keyed by target and validated by (version, current_hash):
 * a committed version names exactly one text, so a hit can never be stale, whichever process wrote it.
 * An entry written by a transaction that later rolls back is harmless for the same reason: a row can
 * only reach that (version, hash) with that very text. Bounded by UTF-16 bytes, least recently used out.
 */
export interface CachedContent {
  version: number;
  current_hash: string;
  chunks: string[];
  content: string;
}

/** Writes to a target that skip the optimistic path after it found the row moved. */
const CONTENDED_SKIPS = 32;

export class ContentCache {
  private readonly entries = new Map<string, CachedContent>();
  /** The newest committed row this process saw per target (an optimistic write starts from it). */
  private readonly heads = new Map<string, TargetHead>();
  /** Writes in flight here per target, and how many more writes should skip the optimistic path. */
  private readonly writing = new Map<string, number>();
  private readonly cooling = new Map<string, number>();
  private bytes = 0;

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  get(targetId: string, version: number, hash: string): CachedContent | null {
    const hit = this.entries.get(targetId);
    if (!hit || hit.version !== version || hit.current_hash !== hash) return null;
    this.entries.delete(targetId);
    this.entries.set(targetId, hit);
    return hit;
  }

  set(targetId: string, entry: CachedContent): void {
    this.remove(targetId);
    const size = entry.content.length * 2;
    if (size > this.maxBytes) return;
    this.entries.set(targetId, entry);
    this.bytes += size;
    for (const [id, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(id);
      this.heads.delete(id);
      this.bytes -= old.content.length * 2;
    }
  }

  remove(targetId: string): void {
    const old = this.entries.get(targetId);
    if (!old) return;
    this.entries.delete(targetId);
    this.heads.delete(targetId);
    this.bytes -= old.content.length * 2;
  }

  /**
   * Records a row known to be committed (read, or written by a transaction that committed). Only a
   * newer stream version replaces the head, so answers arriving out of order cannot move it back.
   */
  rememberHead(head: TargetHead): void {
    if (!this.entries.has(head.target_id)) return;
    const known = this.heads.get(head.target_id);
    if (!known || known.stream_version < head.stream_version) this.heads.set(head.target_id, head);
  }

  /** A committed write's row and text together, unless a newer head is already known. */
  setCommitted(head: TargetHead, chunks: string[], content: string): void {
    const known = this.heads.get(head.target_id);
    if (known && known.stream_version >= head.stream_version) return;
    this.set(head.target_id, { version: head.version, current_hash: head.current_hash, chunks, content });
    this.rememberHead(head);
  }

  /** A write to the target starts in this process; pair with `endWrite`. */
  beginWrite(targetId: string): void {
    this.writing.set(targetId, (this.writing.get(targetId) ?? 0) + 1);
  }

  endWrite(targetId: string): void {
    const n = (this.writing.get(targetId) ?? 1) - 1;
    if (n > 0) this.writing.set(targetId, n);
    else this.writing.delete(targetId);
  }

  /** An optimistic write found the row moved: the next few writes to the target go straight to the lock. */
  markContended(targetId: string): void {
    this.cooling.set(targetId, CONTENDED_SKIPS);
  }

  /**
   * The head for an optimistic write, or null when one would probably lose: another write to the
   * target is in flight here, or one recently found the row moved (a contended target: waiting for
   * the lock at once is cheaper than a failed attempt first).
   */
  optimisticHead(targetId: string): ReturnType<ContentCache['head']> {
    if ((this.writing.get(targetId) ?? 0) > 1) return null;
    const skips = this.cooling.get(targetId);
    if (skips !== undefined) {
      if (skips <= 1) this.cooling.delete(targetId);
      else this.cooling.set(targetId, skips - 1);
      return null;
    }
    return this.head(targetId);
  }

  /**
   * The last committed row with its text, when the text cached is that row's. It may be stale (another
   * process wrote since): a write decided on it must be guarded by its stream_version.
   */
  head(targetId: string): (TargetHead & { content: string; chunks: string[] }) | null {
    const head = this.heads.get(targetId);
    if (!head) return null;
    const entry = this.entries.get(targetId);
    if (!entry || entry.version !== head.version || entry.current_hash !== head.current_hash) return null;
    return { ...head, content: entry.content, chunks: entry.chunks };
  }
}
