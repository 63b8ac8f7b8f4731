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

export class ContentCache {
  private readonly entries = new Map<string, CachedContent>();
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
      this.bytes -= old.content.length * 2;
    }
  }

  remove(targetId: string): void {
    const old = this.entries.get(targetId);
    if (!old) return;
    this.entries.delete(targetId);
    this.bytes -= old.content.length * 2;
  }
}
