import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Db } from '@palimpsest/store/db';
import { sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';

/** Writers that append to 8 streams, a few events at a time, until stopped (PostgreSQL: beside the projectors). */
export function startWriters(db: Db): { stop(): Promise<number> } {
  let running = true;
  let appended = 0;
  const writer = async (w: number) => {
    const stream = uniqueStreamId(`crash-${w}`);
    for (let version = 0; running; ) {
      const count = 1 + ((version + w) % 3);
      await appendToStream(db, stream, version, sampleEvents(count, version + 1));
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

