import type { AppContext } from '@palimpsest/application/app-context';
import { dispatch } from '@palimpsest/application/dispatch/dispatch';

export interface ReplayAllPage {
  status: 'success' | 'failed';
  checked: number;
  diverged: Record<string, unknown>[];
  /** Pass as `after` for the next page; null when every target was checked. */
  next_after: number | null;
}

/**
 * Replays a page of targets through the same palimpsest_replay handler the per-target route uses.
 * Targets are listed from the event log (each stream's first event), not from the read model, so a
 * target missing from the read model shows up as diverged instead of being skipped.
 */
export async function replayAll(ctx: AppContext, opts: { limit: number; after: number }): Promise<ReplayAllPage> {
  const { rows } = await ctx.db.query<{ stream_id: string; global_position: number }>(
    `SELECT stream_id, global_position FROM events
      WHERE stream_version = 1 AND stream_id LIKE 'target-%' AND global_position > $1
      ORDER BY global_position LIMIT $2`,
    [opts.after, opts.limit + 1],
  );
  const page = rows.slice(0, opts.limit);
  const diverged: Record<string, unknown>[] = [];
  for (const row of page) {
    const report = await dispatch(ctx, 'palimpsest_replay', { target_file_id: row.stream_id.slice('target-'.length) });
    if (report.status !== 'success' || report.materialized_state_matches !== true) diverged.push(report);
  }
  return {
    status: diverged.length ? 'failed' : 'success',
    checked: page.length,
    diverged,
    next_after: rows.length > opts.limit ? page[page.length - 1]!.global_position : null,
  };
}
