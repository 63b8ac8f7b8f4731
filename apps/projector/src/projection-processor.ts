import type { AsyncProjection } from '@palimpsest/projections/async/async-projection.port';
import type { Db } from '@palimpsest/store/db';
import { crashPoint } from '@palimpsest/testing/crash-point';
import type { LogProcessor } from './log-processor';

/**
 * An asynchronous projection as a processor of the log consumer (Emmett's projector()): each batch is
 * one transaction, the projection's writes then its checkpoint compare-and-set, so a crash anywhere
 * loses the whole batch or nothing and every event is applied exactly once. A batch the projection
 * follows none of (a command run's events, for the search index) only moves the checkpoint.
 */
export function projectionProcessor(db: Db, projection: AsyncProjection): LogProcessor {
  return {
    name: projection.name,
    kind: 'projection',
    widensPages: true,
    async handle(events, batch) {
      if (projection.canHandle && !events.some((e) => projection.canHandle!(e))) return batch.commit();
      await db.transaction(async (tx) => {
        await projection.apply(tx, events);
        crashPoint('projector.after_apply'); // opt-in: dies with the batch applied, its checkpoint not yet committed
        await batch.commit(tx);
      });
    },
  };
}
