import type { NextAction } from '@palimpsest/core/errors/error-model';
import { selectExact } from '@palimpsest/core/structure/scope-selection';
import type { StructureSymbol, SymbolKind } from '@palimpsest/core/structure/structure.port';
import type { TargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { ObservationRow } from '@palimpsest/projections/observations.queries';
import type { AppContext } from '../app-context';
import { discoveryAction, observeAction, readyObserveAction } from './scope-next-actions';

export type RecordedSelection = Pick<ObservationRow, 'selector_name' | 'selector_kind' | 'symbol_name' | 'symbol_kind' | 'symbol_parent' | 'scope_start'>;

/** The current outline's symbols, or null when no grammar serves the target. */
export async function currentSymbols(ctx: AppContext, target: TargetRow): Promise<StructureSymbol[] | null> {
  const language = ctx.outlines.engine.languageOf(target.filename, target.content_type);
  return language ? (await ctx.outlines.outline(target, language)).symbols : null;
}

/**
 * Observe again what an observation selected, on the current text: the recorded selection when it still
 * names one scope; else the ready selection of the scope of the same name, kind and parent nearest the
 * old one (a selection that needed a start line, or text that moved); else discovery by that name.
 */
export function observeAgainAction(targetId: string, symbols: StructureSymbol[] | null, recorded: RecordedSelection, why: string): NextAction {
  const kind = (recorded.selector_kind as SymbolKind | null) ?? null;
  if (symbols === null) return discoveryAction(targetId, null, null, why);
  const same = selectExact(symbols, recorded.selector_name, kind);
  if (same.kind === 'one') return observeAction(targetId, same.symbol, { symbol_name: recorded.selector_name, ...(kind ? { kind } : {}) }, {}, `${why} Observe`);
  const namesakes = symbols
    .filter((s) => s.name === recorded.symbol_name && s.kind === recorded.symbol_kind && s.parent === recorded.symbol_parent)
    .sort((a, b) => Math.abs(a.start - recorded.scope_start) - Math.abs(b.start - recorded.scope_start));
  const ready = namesakes.length ? readyObserveAction(targetId, symbols, namesakes[0], {}, `${why} Observe`) : null;
  return ready ?? discoveryAction(targetId, recorded.symbol_name, null, `${why} The scope is no longer named as it was: list the scopes by its name.`);
}

/** observeAgainAction on the target as it is now (read after the refusal; nothing is locked). */
export async function observeAgain(ctx: AppContext, target: TargetRow, recorded: RecordedSelection, why: string): Promise<NextAction> {
  return observeAgainAction(target.target_id, await currentSymbols(ctx, target), recorded, why);
}
