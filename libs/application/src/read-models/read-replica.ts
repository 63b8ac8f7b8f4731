import type { Db } from '@palimpsest/store/db';

/** After the replica fails a read, the reads go to the primary this long before it is tried again. */
export const REPLICA_PAUSE_MS = 5_000;

/** The replica and whether to try it: one that failed (down, unreachable) rests, so reads do not wait on it each time. */
export class ReadReplica {
  private restUntil = 0;

  /** `resting`: it did not answer at start, so the primary serves its reads until the first pause is over. */
  constructor(
    readonly db: Db,
    resting = false,
  ) {
    if (resting) this.failed();
  }

  get usable(): boolean {
    return performance.now() >= this.restUntil;
  }

  failed(): void {
    this.restUntil = performance.now() + REPLICA_PAUSE_MS;
  }
}

