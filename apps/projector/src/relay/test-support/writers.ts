import { randomUUID } from 'node:crypto';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Sql } from '@palimpsest/store/db';
import { StreamVersionConflictError } from '@palimpsest/store/errors';
import { readStream } from '@palimpsest/store/read-stream';
import { sampleEvent } from '@palimpsest/store/test-support/sample-events';

const KINDS = ['target', 'candidate', 'publication'] as const;
let n = 0;

/** A stream id shaped like the engine's (`target-<uuid>`…), cycling through its kinds. */
export function engineStreamId(i: number): string {
  return `${KINDS[i % KINDS.length]}-${randomUUID()}`;
}

/** Appends one event at the stream's next version, retrying when a concurrent writer took it. */
export async function appendNext(db: { transaction: <T>(fn: (tx: Sql) => Promise<T>) => Promise<T> }, streamId: string, hold?: () => Promise<void>): Promise<void> {
  for (;;) {
    try {
      await db.transaction(async (tx) => {
        const version = (await readStream(tx, streamId)).length;
        n += 1;
        await appendToStream(tx, streamId, version, [sampleEvent(n, { type: n % 2 ? 'SampleHappened' : 'SampleNoted', metadata: { writer: n } })]);
        await hold?.();
      });
      return;
    } catch (error) {
      if (!(error instanceof StreamVersionConflictError)) throw error;
    }
  }
}
