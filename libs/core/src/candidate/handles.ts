/**
 * Intra-batch handles: an operation with `handle` names the text it wrote; a later `span` operation
 * of the same batch addresses that text as `range: {"handle": name}`. A handle follows its text
 * through later operations (shifting when text is inserted or removed before it) and is spent when
 * an operation that did not address it overwrites any part of it.
 */

export interface HandleRegion {
  target_id: string;
  start: number;
  end: number;
  spent: boolean;
}

export class HandleTable {
  private readonly regions = new Map<string, HandleRegion>();

  has(name: string): boolean {
    return this.regions.has(name);
  }

  get(name: string): HandleRegion | undefined {
    return this.regions.get(name);
  }

  define(name: string, region: Omit<HandleRegion, 'spent'>): void {
    this.regions.set(name, { ...region, spent: false });
  }

  /**
   * Code points [start, end) of `target` became `written` code points. `addressed` is the handle the
   * operation wrote through, which keeps tracking the new text.
   */
  record(target: string, start: number, end: number, written: number, addressed: string | null): void {
    const delta = written - (end - start);
    for (const [name, h] of this.regions) {
      if (h.target_id !== target || h.spent) continue;
      if (name === addressed) {
        h.end = start + written;
      } else if (h.end <= start) {
        continue;
      } else if (h.start >= end) {
        h.start += delta;
        h.end += delta;
      } else {
        h.spent = true;
      }
    }
  }
}
