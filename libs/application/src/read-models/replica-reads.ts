import { holdsPosition } from '@palimpsest/store/stream-lookups';
import type { AppContext } from '../app-context';

/** How long a read waits for the replica to replay the write it must show before the primary answers it. */
export const REPLICA_WAIT_MS = 250;
const POLL_MS = 20;

/**
 * The asynchronous read models (search, activity) on the replica when there is one: their min_position
 * rule reads the projection's checkpoint, which the replica holds as it holds the rows it covers.
 */
export function onReplica(ctx: AppContext): AppContext {
  return ctx.replica ? { ...ctx, db: ctx.replica } : ctx;
}

/**
 * The inline read models and history (attempt log, ledger, changes, a file's history) on the replica when
 * it shows the caller's write (`min_position`, a log_sequence the caller got): waiting for its replay at
 * most REPLICA_WAIT_MS, else on the primary, which always does. Without min_position the replica answers
 * as far as it has come.
 */
export async function showingWrite(ctx: AppContext, input: { min_position?: number | null }): Promise<AppContext> {
  const replica = ctx.replica;
  if (!replica) return ctx;
  const position = input.min_position ?? null;
  if (position === null) return { ...ctx, db: replica };
  const deadline = performance.now() + REPLICA_WAIT_MS;
  for (;;) {
    if (await holdsPosition(replica, position)) return { ...ctx, db: replica };
    if (performance.now() >= deadline) return ctx;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
