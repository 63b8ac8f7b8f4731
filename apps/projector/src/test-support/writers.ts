import type { Db } from '@palimpsest/store/db';
import type { NewEvent } from '@palimpsest/store/stored-event';
import { sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';

/**
 * Writers that append to 8 streams, a few events at a time, until stopped (PostgreSQL: beside the projectors).
 * The spec hands in the store's append (a gateway's code, test support included, does not write events itself).
 */
export function startWriters(db: Db, append: (db: Db, streamId: string, expectedVersion: number, events: NewEvent[]) => Promise<unknown>): { stop(): Promise<number> } {
  let running = true;
  let appended = 0;
  const writer = async (w: number) => {
    const stream = uniqueStreamId(`crash-${w}`);
    for (let version = 0; running; ) {
      const count = 1 + ((version + w) % 3);
      await append(db, stream, version, sampleEvents(count, version + 1));
      version += count;
      appended += count;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const all = Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));
  return {
    async stop() {
      running = false;
      await all;
      return appended;
    },
  };
}

