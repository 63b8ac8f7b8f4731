import type { NextAction } from '@palimpsest/core/errors/error-model';
import { invalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { CandidateList } from '@palimpsest/core/structure/scope-selection';
import type { RefusalDetails } from '@palimpsest/core/errors/refusal-details';
import type { ScopePage } from '@palimpsest/core/structure/scope-page';
import type { StructureOutline, StructureSymbol } from '@palimpsest/core/structure/structure.port';
import type { ObservedScope } from '@palimpsest/core/target/target.events';
import type { TargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { Params } from '@palimpsest/protocol/catalog/operation-types';
import { OBSERVE_SCOPE } from './scope-next-actions';

/** The answers of palimpsest_observe_scope, field names per the seed. */

export function candidateEntry(s: StructureSymbol) {
  return { name: s.name, kind: s.kind, parent: s.parent, start: s.start, end: s.end, start_line: s.start_line, end_line: s.end_line };
}

function head(t: TargetRow, outline: StructureOutline) {
  return { target_file_id: t.target_id, target_version: t.version, target_current_hash: t.current_hash, language: outline.language, engine: outline.engine };
}

export function candidatesAnswer(t: TargetRow, outline: StructureOutline, list: CandidateList) {
  return {
    status: 'candidates' as const,
    observation_id: null,
    ...head(t, outline),
    candidates: list.candidates.map(candidateEntry),
    total_candidates: list.total_candidates,
    candidates_truncated: list.candidates_truncated,
  };
}

export function notFoundAnswer(t: TargetRow, outline: StructureOutline, symbolName: string, nextActions: NextAction[], selectionIndex?: number) {
  return {
    status: 'not_found' as const,
    code: 'SCOPE_NOT_FOUND' as const,
    observation_id: null,
    ...head(t, outline),
    ...(selectionIndex === undefined ? {} : { selection_index: selectionIndex }),
    failure_detail: `No ${outline.language} symbol is named ${JSON.stringify(symbolName)} (name, parent.name or a trailing dotted path, exact). Discover candidates with query.`,
    next_actions: nextActions,
  };
}

export function ambiguousAnswer(t: TargetRow, outline: StructureOutline, symbolName: string, list: CandidateList, nextActions: NextAction[], selectionIndex?: number) {
  return {
    status: 'ambiguous' as const,
    code: 'AMBIGUOUS_SCOPE_SELECTION' as const,
    observation_id: null,
    ...head(t, outline),
    ...(selectionIndex === undefined ? {} : { selection_index: selectionIndex }),
    failure_detail: `${list.total_candidates} symbols are named ${JSON.stringify(symbolName)}: next_actions holds one ready selection per candidate.`,
    candidates: list.candidates.map(candidateEntry),
    total_candidates: list.total_candidates,
    candidates_truncated: list.candidates_truncated,
    next_actions: nextActions,
  };
}

export function scopeReceipt(scope: ObservedScope, page: ScopePage) {
  return {
    observation_id: scope.observation_id,
    symbol: scope.symbol,
    scope_start: scope.scope_start,
    scope_end: scope.scope_end,
    scope_length: scope.scope_end - scope.scope_start,
    observed_scope_hash: scope.observed_scope_hash,
    ...page,
  };
}

export function observedAnswer(t: TargetRow, outline: StructureOutline, scope: ObservedScope, page: ScopePage) {
  return { status: 'observed' as const, ...head(t, outline), editing_cycle_id: t.active_editing_cycle_id, ...scopeReceipt(scope, page) };
}

export function batchAnswer(t: TargetRow, outline: StructureOutline, bundleId: string, scopes: { scope: ObservedScope; ordinal: number; page: ScopePage }[]) {
  return {
    status: 'observed_batch' as const,
    bundle_id: bundleId,
    ...head(t, outline),
    editing_cycle_id: t.active_editing_cycle_id,
    scope_count: scopes.length,
    scopes: scopes.map(({ scope, ordinal, page }) => ({ ordinal, ...scopeReceipt(scope, page) })),
  };
}

export function observationRefusal(code: string, status: 'rejected' | 'not_found' | 'unsupported', detail: string, extra: RefusalDetails, nextActions: NextAction[]) {
  return { status, code, failure_detail: detail, ...extra, next_actions: nextActions };
}

/** Past the scope's end: the same call from its first page. */
export function offsetRefusal(offset: number, length: number, call: Params<typeof OBSERVE_SCOPE>) {
  const firstPage: NextAction = { operation: OBSERVE_SCOPE, reason: 'Read the scope from its first page.', params: { ...call, offset: 0 } };
  return invalidArgument('offset_out_of_range', `offset ${offset} is outside the scope's ${length} code points.`, { argument: 'offset', next_actions: [firstPage] });
}

/**
 * The read-only profile (seed 001: semantic reads only, no durable state) serves discovery and paging,
 * which record nothing; an exact or bundle selection records an observation, so it is refused up front,
 * whatever it would have matched.
 */
export function readOnlySelectionRefusal(discovery: NextAction) {
  return {
    status: 'invalid_argument' as const,
    code: 'operation_not_permitted' as const,
    answer: 'FORBIDDEN' as const,
    tool: OBSERVE_SCOPE,
    observation_id: null,
    failure_detail:
      'Selecting a scope (symbol_name, selections) records an observation; this session runs the read-only profile, which serves discovery (query, kind) and paging (observation_id) only. This is an answer: do not route around it.',
    next_actions: [discovery],
  };
}
