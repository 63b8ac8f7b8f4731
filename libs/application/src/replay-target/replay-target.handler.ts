import { replayTarget } from '@palimpsest/projections/replay/replay-target';
import type { AppContext } from '../app-context';
import { targetIdOf, notFound } from '../shared/target-lookup';

export async function replayTargetQuery(ctx: AppContext, input: { target_file_id: unknown }) {
  const { id: targetId, error } = targetIdOf(input.target_file_id);
  if (error) return error;
  // One snapshot for the stream and the row, so a concurrent commit cannot look like divergence.
  const report = await ctx.db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    return replayTarget(tx, targetId);
  });
  return report ?? notFound(targetId);
}
