import type { StructureEngine, StructureLanguage, StructureOutline } from '@palimpsest/core/structure/structure.port';

/**
 * Outlines per (target, version, hash), most recently used kept: a target's text never changes within a
 * version, so an outline stays exact until the next accepted change. Bounded by entries and by the code
 * units of the texts they describe (symbols grow with the text).
 */
export class OutlineCache {
  private readonly entries = new Map<string, { outline: Promise<StructureOutline>; weight: number }>();
  private weight = 0;

  constructor(
    readonly engine: StructureEngine,
    private readonly maxEntries = 64,
    private readonly maxWeight = 32 * 1024 * 1024,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  has(targetId: string, version: number, hash: string): boolean {
    return this.entries.has(`${targetId}:${version}:${hash}`);
  }

  outline(target: { target_id: string; version: number; current_hash: string; content: string }, language: StructureLanguage): Promise<StructureOutline> {
    const key = `${target.target_id}:${target.version}:${target.current_hash}`;
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.outline;
    }
    const outline = this.engine.outline(language, target.content);
    const entry = { outline, weight: target.content.length };
    this.entries.set(key, entry);
    this.weight += entry.weight;
    outline.catch(() => this.drop(key));
    this.evict();
    return outline;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }

  private evict(): void {
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.weight <= this.maxWeight) return;
      if (this.entries.size === 1) return;
      this.drop(key);
    }
  }
}
