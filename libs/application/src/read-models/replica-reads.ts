import type { Db } from '@palimpsest/store/db';
import { holdsPosition } from '@palimpsest/store/stream-lookups';
import type { AppContext } from '../app-context';
import { pollUntil } from './poll-until';

/** How long a read waits for the replica to replay the write it must show before the primary answers it. */
export const REPLICA_WAIT_MS = 250;

/**
 * The asynchronous read models (search, activity) read on the replica when there is one: their
 * min_position rule reads the projection's checkpoint, which the replica holds with the rows it covers.
 * A replica that fails the read (down, cut off) leaves it to the primary: reads are safe to ask twice.
 */
export function onReplica<T>(ctx: AppContext, read: (ctx: AppContext) => Promise<T>): Promise<T> {
  const replica = ctx.replica;
  if (!replica?.usable) return read(ctx);
  return read({ ...ctx, db: replica.db }).catch(() => {
    replica.failed();
    return read(ctx);
  });
}

/**
 * The inline read models and history (attempt log, ledger, changes, a file's history) read on the replica
 * when it shows the caller's write (`min_position`, a log_sequence the caller got), waiting for its replay
 * at most REPLICA_WAIT_MS; else on the primary, which always does. Without min_position the replica
 * answers as far as it has come. A replica that fails leaves the read to the primary.
 */
export async function showingWrite<T>(ctx: AppContext, input: { min_position?: number | null }, read: (ctx: AppContext) => Promise<T>): Promise<T> {
  const replica = ctx.replica;
  if (!replica?.usable) return read(ctx);
  const position = input.min_position ?? null;
  try {
    if (position !== null && !(await replayed(replica.db, position))) return read(ctx);
  } catch {
    replica.failed();
    return read(ctx);
  }
  return onReplica(ctx, read);
}

function replayed(replica: Db, position: number): Promise<boolean> {
  return pollUntil(() => holdsPosition(replica, position), REPLICA_WAIT_MS);
}
