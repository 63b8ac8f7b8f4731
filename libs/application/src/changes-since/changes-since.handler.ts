import { invalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { codePointLength, sliceCodePoints } from '@palimpsest/core/text/code-points';
import { acceptedEffectsOfTarget, acceptedEffectsOfWorkspace } from '@palimpsest/projections/accepted-effects.queries';
import { targetHeads } from '@palimpsest/projections/content/target-row.queries';
import type { AppContext } from '../app-context';
import { notFound, targetIdOf } from '../shared/target-lookup';
import { withEffects, type AcceptedEffects } from './effect-history';

export const CHANGES_SINCE_DEFAULT_LIMIT = 50;
export const CHANGES_SINCE_DEFAULT_INSERTED = 200;

export interface ChangesSinceInput {
  target_file_id?: string | null;
  from_version?: number | null;
  from_position?: number | null;
  limit?: number | null;
  max_inserted_code_points?: number | null;
}

function changeOf(r: AcceptedEffects, maxInserted: number) {
  return {
    attempt_id: r.attempt_id,
    target_file_id: r.target_id,
    path: r.path,
    version: r.after_version,
    log_sequence: r.log_sequence,
    time: r.created_at,
    source: r.source,
    intent: r.intent,
    effects: r.effects.map((e) => {
      const length = codePointLength(e.inserted);
      const cut = length > maxInserted;
      return { start: e.start, end: e.end, inserted: cut ? sliceCodePoints(e.inserted, 0, maxInserted) : e.inserted, inserted_code_points: length, inserted_truncated: cut };
    }),
  };
}

/**
 * palimpsest_changes_since: the accepted changes after a version or log position, oldest first, each
 * with the effects its event recorded (never recomputed). One target, or with none every workspace-bound
 * file (from a position). A page ends at `limit` attempts; next_position continues it.
 */
export async function changesSince(ctx: AppContext, input: ChangesSinceInput) {
  const limit = input.limit ?? CHANGES_SINCE_DEFAULT_LIMIT;
  const maxInserted = input.max_inserted_code_points ?? CHANGES_SINCE_DEFAULT_INSERTED;
  const fromVersion = input.from_version ?? null;
  const fromPosition = input.from_position ?? null;
  if (fromVersion === null && fromPosition === null) {
    return invalidArgument('missing_from', 'Say where to start: from_version (of a target) or from_position (a log_sequence).', { argument: 'from_version' });
  }
  let targetId: string | null = null;
  let currentVersion: number | null = null;
  if (input.target_file_id != null) {
    const parsed = targetIdOf(input.target_file_id);
    if (parsed.error) return parsed.error;
    const [head] = await targetHeads(ctx.db, [parsed.id]);
    if (!head) return notFound(parsed.id);
    targetId = head.target_id;
    currentVersion = head.version;
    if (fromVersion !== null && fromVersion > head.version) {
      return invalidArgument('version_ahead', `from_version ${fromVersion} is ahead of the target's version ${head.version}.`, { argument: 'from_version', target_file_id: targetId });
    }
  } else if (fromPosition === null) {
    return invalidArgument('missing_from', 'Every workspace file at once is read from a log position: send from_position (0 for the beginning).', { argument: 'from_position' });
  }
  const rows = targetId !== null
    ? await acceptedEffectsOfTarget(ctx.db, targetId, { afterVersion: fromVersion, afterPosition: fromPosition }, limit + 1)
    : await acceptedEffectsOfWorkspace(ctx.db, fromPosition ?? 0, limit + 1);
  const page = await withEffects(ctx.db, rows.slice(0, limit));
  const complete = rows.length <= limit;
  return {
    status: 'ok' as const,
    target_file_id: targetId,
    current_version: currentVersion,
    changes: page.map((r) => changeOf(r, maxInserted)),
    next_position: complete || page.length === 0 ? null : page[page.length - 1]!.log_sequence,
    complete,
  };
}
