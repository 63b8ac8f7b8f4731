import type { NextAction } from '@palimpsest/core/errors/error-model';
import type { InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { bundleCaps, discoverCandidates, isBlankSelector, resolveBundle, selectExact, type BundleFailure } from '@palimpsest/core/structure/scope-selection';
import type { StructureLanguage, StructureOutline, StructureSymbol } from '@palimpsest/core/structure/structure.port';
import type { CodePointIndex } from '@palimpsest/core/text/code-points';
import { sha256Hex } from '@palimpsest/core/text/sha256';
import { decide } from '@palimpsest/core/target/target.decider';
import type { RecordObservation } from '@palimpsest/core/target/target.commands';
import type { ObservationBase, ObservedScope, ScopeSelector } from '@palimpsest/core/target/target.events';
import { readTargetRow, type TargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { readTarget } from '@palimpsest/protocol/catalog/operations/reads.operations';
import type { AppContext } from '../app-context';
import { commitDecided, runTargetCommand } from '../shared/target-pipeline/target-pipeline';
import { notFound, targetIdOf } from '../shared/target-lookup';
import { refusalAnswer } from '../shared/target-refusals';
import { ambiguousAnswer, batchAnswer, candidatesAnswer, notFoundAnswer, observationRefusal, observedAnswer, offsetRefusal, readOnlySelectionRefusal } from './observe-scope-answers';
import { observeMode, type ObserveMode, type ObserveScopeInput, type PageRequest } from './observe-scope-input';
import { pageArgs, pageObservation, pageOf, textIndex } from './page-observation';
import {
  ambiguousBundleActions,
  ambiguousSelectionActions,
  bundleTooLargeActions,
  bundleWithoutActions,
  discoveryAction,
  notFoundActions,
} from './scope-next-actions';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

type Answer = Result<OP.palimpsest_observe_scope>;

/**
 * palimpsest_observe_scope. Discovery and refusals answer from one coherent read of the target (no lock,
 * nothing recorded). An observation is recorded on the target's stream under its row lock, from the
 * locked text's outline (the cache makes it the one already parsed unless the target just moved), so
 * its version, hash and editing cycle are exactly the state the append follows. A read-only session
 * (`readOnly`) gets discovery and paging only.
 */
export async function observeScope(ctx: AppContext, input: ObserveScopeInput, readOnly = false): Promise<Answer> {
  const mode = observeMode(input);
  if ('status' in mode) return withDiscovery(ctx, input, mode);
  if (readOnly && (mode.mode === 'select' || mode.mode === 'bundle')) {
    const name = mode.mode === 'select' ? mode.symbolName : null;
    return readOnlySelectionRefusal(discoveryAction(String(input.target_file_id), name, null, 'Discovery is served in this profile: list the candidates.'));
  }
  const { id, error } = targetIdOf(input.target_file_id);
  if (error) return error;
  const target = await readTargetRow(ctx.db, id, ctx.contents);
  if (!target) return notFound(id);
  if (mode.mode === 'page') return pageObservation(ctx, target, mode.observationId, mode.page, readOnly);
  const language = ctx.outlines.engine.languageOf(target.filename, target.content_type);
  if (!language) {
    const read: NextAction = { operation: readTarget.name, reason: 'No scope can be observed here: read the text and submit unobserved (palimpsest_submit_edits).', params: { target_file_id: id, start: 0, length: 4000 } };
    return observationRefusal('UNSUPPORTED_LANGUAGE', 'unsupported', `No structural grammar serves ${JSON.stringify(target.filename)} (${target.content_type}): TypeScript, TSX, JavaScript, Python, Markdown, YAML and JSON are.`, { target_file_id: id }, [read]);
  }
  const outline = await ctx.outlines.outline(target, language);
  if (mode.mode === 'discover') return candidatesAnswer(target, outline, discoverCandidates(outline.symbols, mode.query, mode.kind));
  const early = plan(ctx, target, outline, mode);
  if (early.record === null) return early.answer;
  return recordUnderLock(ctx, id, language, mode);
}

/** A refusal of the arguments themselves: discovery on the target is the read that shows what to select (when the target exists). */
async function withDiscovery(ctx: AppContext, input: ObserveScopeInput, refusal: InvalidArgument): Promise<Answer> {
  const { id } = targetIdOf(input.target_file_id);
  if (!id || !(await readTargetRow(ctx.db, id, ctx.contents))) return refusal;
  const named = [input.symbol_name, input.query].find((v): v is string => typeof v === 'string' && !isBlankSelector(v)) ?? null;
  return { ...refusal, next_actions: [discoveryAction(id, named, null, 'List the candidates; then select one with symbol_name alone.')] };
}

interface Planned {
  answer: Answer;
  record: RecordObservation['observation'] | null;
}

/** What the arguments select on this outline: an answer, and the observation to record when there is one. */
function plan(ctx: AppContext, target: TargetRow, outline: StructureOutline, mode: Extract<ObserveMode, { mode: 'select' | 'bundle' }>): Planned {
  const text = textIndex(target);
  const base: ObservationBase = {
    target_id: target.target_id,
    editing_cycle_id: target.active_editing_cycle_id,
    target_version: target.version,
    target_hash: target.current_hash,
    language: outline.language,
    engine: outline.engine,
    observed_at: ctx.clock.now(),
  };
  if (mode.mode === 'select') {
    const found = selectExact(outline.symbols, mode.symbolName, mode.kind, mode.startLine);
    if (found.kind === 'none') return { answer: notFoundAnswer(target, outline, mode.symbolName, notFoundActions(target.target_id, outline.symbols, mode.symbolName, mode.kind)), record: null };
    if (found.kind === 'many') {
      const actions = ambiguousSelectionActions(target.target_id, outline.symbols, found.candidates, found.total_candidates, mode, pageArgs(mode.page));
      return { answer: ambiguousAnswer(target, outline, mode.symbolName, found, actions), record: null };
    }
    const length = found.symbol.end - found.symbol.start;
    if (mode.page.offset > 0 && mode.page.offset >= length) {
      const call = { target_file_id: target.target_id, symbol_name: mode.symbolName, ...(mode.kind ? { kind: mode.kind } : {}), ...(mode.startLine ? { start_line: mode.startLine } : {}), ...pageArgs(mode.page) };
      return { answer: offsetRefusal(mode.page.offset, length, call), record: null };
    }
    // The recorded selector is name and kind, as the released event schema holds it: start_line only narrowed the match, and the bounds are recorded.
    const scope = observedScope(ctx.ids.next(), { symbol_name: mode.symbolName, kind: mode.kind }, found.symbol, text.index);
    const page = pageOf(text, scope, mode.page);
    return { answer: observedAnswer(target, outline, scope, page), record: { type: 'ScopeObserved', data: { ...base, ...scope } } };
  }
  const resolved = resolveBundle(outline.symbols, mode.selections);
  if (!resolved.ok) return { answer: bundleRefusal(target, outline, mode, resolved), record: null };
  const capped = bundleCaps(resolved.symbols, mode.page.maxChars);
  if (capped) return { answer: bundleRefusal(target, outline, mode, capped), record: null };
  const bundleId = ctx.ids.next();
  const scopes = resolved.symbols.map((symbol, i) => {
    const sel = mode.selections[i];
    const scope = observedScope(ctx.ids.next(), { symbol_name: sel.symbol_name, kind: sel.kind ?? null }, symbol, text.index);
    return { scope, ordinal: i + 1, page: pageOf(text, scope, mode.page) };
  });
  return {
    answer: batchAnswer(target, outline, bundleId, scopes),
    record: { type: 'BundleObserved', data: { ...base, bundle_id: bundleId, scopes: scopes.map(({ scope, ordinal }) => ({ ...scope, ordinal })) } },
  };
}

function bundleRefusal(target: TargetRow, outline: StructureOutline, mode: Extract<ObserveMode, { mode: 'bundle' }>, failure: BundleFailure): Answer {
  const index = failure.selection_index ?? undefined;
  const id = target.target_id;
  const page = pageArgs(mode.page);
  const sel = index === undefined ? null : mode.selections[index];
  if (failure.code === 'SCOPE_NOT_FOUND' && sel) return notFoundAnswer(target, outline, sel.symbol_name, notFoundActions(id, outline.symbols, sel.symbol_name, sel.kind ?? null), index);
  if (failure.code === 'AMBIGUOUS_SCOPE_SELECTION' && failure.candidates && index !== undefined && sel) {
    const actions = ambiguousBundleActions(id, outline.symbols, mode.selections, index, failure.candidates.candidates, page);
    return ambiguousAnswer(target, outline, sel.symbol_name, failure.candidates, actions, index);
  }
  const actions = index === undefined ? bundleTooLargeActions(id, outline.symbols, mode.selections, page) : bundleWithoutActions(id, outline.symbols, mode.selections, index, page);
  return observationRefusal(failure.code, 'rejected', failure.detail, { observation_id: null, bundle_id: null, target_file_id: id, selection_index: failure.selection_index }, actions);
}

function observedScope(observationId: string, selector: ScopeSelector, symbol: StructureSymbol, index: CodePointIndex): ObservedScope {
  return {
    observation_id: observationId,
    selector,
    symbol: { name: symbol.name, kind: symbol.kind, parent: symbol.parent },
    scope_start: symbol.start,
    scope_end: symbol.end,
    observed_scope_hash: sha256Hex(index.slice(symbol.start, symbol.end)),
  };
}

/** The locked path: outline of the locked text, selection again, the observation recorded on the stream. */
function recordUnderLock(ctx: AppContext, targetId: string, language: StructureLanguage, mode: Extract<ObserveMode, { mode: 'select' | 'bundle' }>): Promise<Answer> {
  const now = ctx.clock.now();
  const answer = (a: Answer) => ({ kind: 'answer' as const, answer: a });
  return runTargetCommand(ctx, {
    targetId,
    locked: async (locked, unit) => {
      const planned = locked ? plan(ctx, locked, await ctx.outlines.outline(locked, language), mode) : null;
      if (!locked || !planned) return answer(notFound(targetId));
      if (planned.record === null) return answer(planned.answer);
      const outcome = decide({ type: 'RecordObservation', now, target_id: targetId, observation: planned.record }, locked);
      if (outcome.kind === 'refused') return answer(refusalAnswer(outcome.refusal));
      await commitDecided(unit, locked, outcome, now, { command: 'ObserveScope' });
      return answer(planned.answer);
    },
  });
}
