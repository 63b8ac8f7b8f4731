import type { AppContext } from '@palimpsest/application/app-context';
import { dispatch } from '@palimpsest/application/dispatch/dispatch';
import { streamStarts } from '@palimpsest/store/stream-lookups';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

const TARGET_STREAM_PREFIX = 'target-';

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
  const rows = await streamStarts(ctx.db, { prefix: TARGET_STREAM_PREFIX, after: opts.after, limit: opts.limit + 1 });
  const page = rows.slice(0, opts.limit);
  const diverged: Record<string, unknown>[] = [];
  for (const row of page) {
    const report = await dispatch(ctx, OP.palimpsest_replay, { target_file_id: row.streamId.slice(TARGET_STREAM_PREFIX.length) });
    if (report.status !== 'success' || report.materialized_state_matches !== true) diverged.push(report);
  }
  return {
    status: diverged.length ? 'failed' : 'success',
    checked: page.length,
    diverged,
    next_after: rows.length > opts.limit ? page[page.length - 1]!.globalPosition : null,
  };
}
