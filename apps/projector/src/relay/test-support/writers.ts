import { randomUUID } from 'node:crypto';
import type { Sql } from '@palimpsest/store/db';
import { StreamVersionConflictError } from '@palimpsest/store/errors';
import { readStream } from '@palimpsest/store/read-stream';
import type { NewEvent } from '@palimpsest/store/stored-event';
import { sampleEvent } from '@palimpsest/store/test-support/sample-events';

const KINDS = ['target', 'candidate', 'publication'] as const;
let n = 0;

/** A stream id shaped like the engine's (`target-<uuid>`…), cycling through its kinds. */
export function engineStreamId(i: number): string {
  return `${KINDS[i % KINDS.length]}-${randomUUID()}`;
}

type Appender = (db: { transaction: <T>(fn: (tx: Sql) => Promise<T>) => Promise<T> }, streamId: string, hold?: () => Promise<void>) => Promise<void>;

/**
 * appendNext(db, stream, hold?) appends one event at the stream's next version, retrying when a concurrent
 * writer took it; `hold` runs before the commit. The spec hands in appendToStream: apps/ code outside
 * specs may not write events (.dependency-cruiser.cjs).
 */
export const appenderWith = (append: (tx: Sql, streamId: string, expectedVersion: number, events: NewEvent[]) => Promise<unknown>): Appender => async (db, streamId, hold) => {
  for (;;) {
    try {
      await db.transaction(async (tx) => {
        const version = (await readStream(tx, streamId)).length;
        n += 1;
        await append(tx, streamId, version, [sampleEvent(n, { type: n % 2 ? 'SampleHappened' : 'SampleNoted', metadata: { writer: n } })]);
        await hold?.();
      });
      return;
    } catch (error) {
      if (!(error instanceof StreamVersionConflictError)) throw error;
    }
  }
};
