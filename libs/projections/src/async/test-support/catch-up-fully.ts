import type { Db } from '@palimpsest/store/db';
import type { AsyncProjection } from '../async-projection.port';
import { catchUp, type CatchUpOptions, type CatchUpResult } from '../catch-up';
import { hasReached } from '../projection-checkpoints';

/**
 * catchUp until the projection has handled the newest event committed when called. On a shared
 * PostgreSQL server readAll withholds events above the cluster's xmin, so one catchUp can stop short
 * while another database's transaction is open; this retries (a projector would, on its next round).
 */
export async function catchUpFully(db: Db, projection: AsyncProjection, opts: CatchUpOptions = {}, timeoutMs = 15_000): Promise<CatchUpResult> {
  const { rows } = await db.query<{ last: number | null }>('SELECT max(global_position) AS last FROM events');
  const last = rows[0]?.last ?? null;
  const total: CatchUpResult = { applied: 0, batches: 0, owned: true };
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const round = await catchUp(db, projection, opts);
    total.applied += round.applied;
    total.batches += round.batches;
    if (last === null || (await hasReached(db, projection.name, Number(last)))) return total;
    if (performance.now() > deadline) throw new Error(`${projection.name} did not reach position ${last} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
