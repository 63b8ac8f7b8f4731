import { invalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { SCOPE_LIMITS } from '@palimpsest/core/structure/scope-selection';
import { scopePage, type ScopeBounds, type ScopePage } from '@palimpsest/core/structure/scope-page';
import { lineStarts } from '@palimpsest/core/structure/symbol-lines';
import { isUuid } from '@palimpsest/core/target/request-identity';
import { CodePointIndex } from '@palimpsest/core/text/code-points';
import { findObservation } from '@palimpsest/projections/observations.queries';
import type { TargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { AppContext } from '../app-context';
import { observeAgain } from './observe-again';
import { observationRefusal, offsetRefusal } from './observe-scope-answers';
import { discoveryAction } from './scope-next-actions';
import type { PageRequest } from './observe-scope-input';

/**
 * A page of an observed scope, from the recorded bounds over the current text: only while the
 * observation still describes it (same target, editing cycle, version and hash). A save closes the
 * cycle even when the text, version and hash are unchanged. Nothing is recorded; the engine does not run.
 */
export async function pageObservation(ctx: AppContext, target: TargetRow, observationId: string, page: PageRequest, readOnly = false) {
  const discover = (why: string) => [discoveryAction(target.target_id, null, null, `${why} List the scopes and select one.`)];
  if (!isUuid(observationId)) {
    return invalidArgument('INVALID_OBSERVATION_ID', 'observation_id must be a UUID from an observed answer.', { argument: 'observation_id', next_actions: discover('No observation has this id.') });
  }
  const obs = await findObservation(ctx.db, observationId.toLowerCase());
  const ids = { target_file_id: target.target_id, observation_id: observationId.toLowerCase() };
  if (!obs) return observationRefusal('UNKNOWN_OBSERVATION_ID', 'not_found', 'No observation has this id: observe the scope first.', ids, discover('No observation has this id.'));
  // A read-only session cannot select (it records an observation): discovery by the scope's name is its read.
  const again = async (why: string) =>
    readOnly ? [discoveryAction(target.target_id, obs.symbol_name, null, `${why} List the scopes by its name.`)] : [await observeAgain(ctx, target, obs, why)];
  if (obs.target_id !== target.target_id) {
    return observationRefusal('OBSERVATION_TARGET_MISMATCH', 'rejected', `The observation belongs to target ${obs.target_id}.`, ids, await again('The observation is of another target; on this one:'));
  }
  const current = { current_version: target.version, current_hash: target.current_hash, observed_version: obs.target_version, observed_hash: obs.target_hash };
  if (obs.editing_cycle_id !== target.active_editing_cycle_id) {
    return observationRefusal('OBSERVATION_CYCLE_MISMATCH', 'rejected', 'A save closed the editing cycle of this observation: observe the scope again.', { ...ids, ...current }, await again('The observation is stale.'));
  }
  if (obs.target_version !== target.version) {
    return observationRefusal('STALE_OBSERVATION_VERSION', 'rejected', `The target moved from version ${obs.target_version} to ${target.version}: observe the scope again.`, { ...ids, ...current }, await again('The observation is stale.'));
  }
  if (obs.target_hash !== target.current_hash) {
    return observationRefusal('STALE_OBSERVATION_HASH', 'rejected', 'The target text no longer hashes to the observed hash: observe the scope again.', { ...ids, ...current }, await again('The observation is stale.'));
  }
  const length = obs.scope_end - obs.scope_start;
  if (page.offset > 0 && page.offset >= length) {
    return offsetRefusal(page.offset, length, { target_file_id: target.target_id, observation_id: obs.observation_id, ...pageArgs(page) });
  }
  const slice = pageOf(textIndex(target), obs, page);
  return {
    status: 'scope_page' as const,
    mode: 'scope_page' as const,
    observation_id: obs.observation_id,
    target_file_id: target.target_id,
    target_version: target.version,
    target_current_hash: target.current_hash,
    editing_cycle_id: obs.editing_cycle_id,
    language: obs.language,
    engine: obs.engine,
    bundle_id: obs.bundle_id,
    ordinal: obs.ordinal,
    symbol: { name: obs.symbol_name, kind: obs.symbol_kind, parent: obs.symbol_parent },
    scope_start: obs.scope_start,
    scope_end: obs.scope_end,
    scope_length: length,
    observed_scope_hash: obs.observed_scope_hash,
    ...slice,
  };
}

/** The page arguments as a call spells them. */
export function pageArgs(page: PageRequest): { max_chars?: number; include_line_starts?: boolean } {
  return { ...(page.maxChars === SCOPE_LIMITS.pageDefault ? {} : { max_chars: page.maxChars }), ...(page.includeLineStarts ? { include_line_starts: true } : {}) };
}

export interface TextIndex {
  index: CodePointIndex;
  starts: number[];
}

/** The code-point index and line starts of a target's text, built once for all the pages drawn from it. */
export function textIndex(target: TargetRow): TextIndex {
  return { index: new CodePointIndex(target.content), starts: lineStarts(target.content) };
}

export function pageOf(text: TextIndex, bounds: ScopeBounds, page: PageRequest): ScopePage {
  return scopePage(text.index, text.starts, bounds, page.offset, page.maxChars, page.includeLineStarts);
}
