import type { Db } from '@palimpsest/store/db';
import { checkpointOf, readAll } from '@palimpsest/store/read-all';
import type { AsyncProjection } from './async-projection.port';
import { advanceCheckpoint, loadCheckpoint } from './projection-checkpoints';

export interface CatchUpResult {
  /** Events applied by this call. */
  applied: number;
  /** Batches committed by this call. */
  batches: number;
  /** False when another instance moved the checkpoint first (this call applied nothing further). */
  owned: boolean;
}

export interface CatchUpOptions {
  batchSize?: number;
  /** Stop after this many batches (a runner yields between rounds); default: until caught up. */
  maxBatches?: number;
  /** The checkpoint's key when it is not the projection's name (e.g. a rebuild's shadow). */
  checkpointName?: string;
}

/**
 * Applies every committed event the projection has not seen, batch by batch. Each batch is one
 * transaction: the projection's writes, then its checkpoint compare-and-set from where the batch was
 * read. A crash anywhere loses the whole batch or nothing, so an event is applied exactly once.
 */
export async function catchUp(db: Db, projection: AsyncProjection, opts: CatchUpOptions = {}): Promise<CatchUpResult> {
  const name = opts.checkpointName ?? projection.name;
  const batchSize = opts.batchSize ?? 500;
  let applied = 0;
  let batches = 0;
  let from = await loadCheckpoint(db, name);
  while (opts.maxBatches === undefined || batches < opts.maxBatches) {
    const events = await readAll(db, { after: from, limit: batchSize });
    if (events.length === 0) break;
    const to = checkpointOf(events[events.length - 1]!);
    const owned = await db.transaction(async (tx) => {
      await projection.apply(tx, events);
      if (await advanceCheckpoint(tx, name, from, to, events.length)) return true;
      throw new CheckpointMoved();
    }).catch((error: unknown) => {
      if (error instanceof CheckpointMoved) return false;
      throw error;
    });
    if (!owned) return { applied, batches, owned: false };
    applied += events.length;
    batches += 1;
    from = { ...from, ...to };
  }
  return { applied, batches, owned: true };
}

class CheckpointMoved extends Error {
  constructor() {
    super('the checkpoint was moved by another instance');
  }
}
