import type { Db } from '@palimpsest/store/db';
import { checkpointOf, readAll, type ReadAllCheckpoint } from '@palimpsest/store/read-all';
import type { StoredEvent } from '@palimpsest/store/stored-event';

const keyOf = (after: ReadAllCheckpoint, limit: number) => `${after.xid}/${after.position}/${limit}`;

/**
 * The consumer's reads of the log (readAll, commit-safe order). After a full page it reads the next
 * one ahead, while the processors handle this one: readAll is gap-safe whenever it runs, so the page
 * read ahead is the one the next step asks for, unless a processor failed (then it is dropped).
 */
export class PageReader {
  private ahead = new Map<string, Promise<StoredEvent[]>>();
  private next = new Map<string, Promise<StoredEvent[]>>();

  constructor(
    private readonly db: Db,
    private readonly withChain = false,
  ) {}

  /** Which processors share a read: those at one checkpoint (each takes its own page size's prefix). */
  key(after: ReadAllCheckpoint): string {
    return `${after.xid}/${after.position}`;
  }

  /** The page of `limit` events after `after`; when full, the next one is read ahead for each of `nextLimits` (its readers' next page sizes). */
  async read(after: ReadAllCheckpoint, limit: number, nextLimits: readonly number[] = [limit]): Promise<StoredEvent[]> {
    const key = keyOf(after, limit);
    const ahead = this.ahead.get(key);
    this.ahead.delete(key);
    const page = await (ahead ?? readAll(this.db, { after, limit, withChain: this.withChain }));
    if (page.length === limit) {
      const to = checkpointOf(page[page.length - 1]!);
      for (const nextLimit of new Set(nextLimits)) {
        const next = readAll(this.db, { after: to, limit: nextLimit, withChain: this.withChain });
        next.catch(() => undefined); // read again when it failed
        this.next.set(keyOf(to, nextLimit), next);
      }
    }
    return page;
  }

  /** A step ends: what was read ahead in it is for the next step; what the last one read ahead and nobody used is dropped. */
  endStep(): void {
    this.ahead = this.next;
    this.next = new Map();
  }

  /** Waits for the reads still in flight (before the store closes). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.ahead.values(), ...this.next.values()]);
    this.ahead.clear();
    this.next.clear();
  }
}
