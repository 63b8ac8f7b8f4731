import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { isBlankSelector, SCOPE_LIMITS, type BundleSelector } from '@palimpsest/core/structure/scope-selection';
import type { SymbolKind } from '@palimpsest/core/structure/structure.port';

/** palimpsest_observe_scope's arguments after admission (the catalog's schema). */
export interface ObserveScopeInput {
  target_file_id: string;
  query?: string | null;
  symbol_name?: string | null;
  kind?: SymbolKind | null;
  start_line?: number | null;
  observation_id?: string | null;
  offset?: number;
  max_chars?: number | null;
  include_line_starts?: boolean;
  selections?: BundleSelector[] | null;
}

export interface PageRequest {
  offset: number;
  maxChars: number;
  includeLineStarts: boolean;
}

export type ObserveMode =
  | { mode: 'discover'; query: string | null; kind: SymbolKind | null }
  | { mode: 'select'; symbolName: string; kind: SymbolKind | null; startLine: number | null; page: PageRequest }
  | { mode: 'page'; observationId: string; page: PageRequest }
  | { mode: 'bundle'; selections: BundleSelector[]; page: PageRequest };

const conflict = (detail: string) => invalidArgument('conflicting_selectors', detail);
const blank = (argument: string) =>
  invalidArgument('blank_selector', `${argument} must not be blank or whitespace-only (omit it or pass null for no ${argument}).`, { argument });

/** Which of the four modes the arguments ask for, or why they ask for none (nothing is read yet). */
export function observeMode(input: ObserveScopeInput): ObserveMode | InvalidArgument {
  const query = input.query ?? null;
  const symbolName = input.symbol_name ?? null;
  const kind = input.kind ?? null;
  const startLine = input.start_line ?? null;
  const observationId = input.observation_id ?? null;
  const offset = input.offset ?? 0;
  if (query !== null && isBlankSelector(query)) return blank('query');
  if (symbolName !== null && isBlankSelector(symbolName)) return blank('symbol_name');
  const page = { offset, maxChars: Math.min(input.max_chars ?? SCOPE_LIMITS.pageDefault, SCOPE_LIMITS.pageMax), includeLineStarts: input.include_line_starts === true };
  const selections = input.selections ?? null;
  if (selections !== null) {
    if (symbolName !== null || query !== null || observationId !== null || kind !== null || startLine !== null || offset !== 0) {
      return conflict('selections is exclusive with symbol_name, query, observation_id, a top-level kind or start_line and a nonzero offset.');
    }
    const blankAt = selections.findIndex((s) => isBlankSelector(s.symbol_name));
    if (blankAt >= 0) return { ...blank(`selections[${blankAt}].symbol_name`), selection_index: blankAt };
    return { mode: 'bundle', selections, page };
  }
  if (observationId !== null) {
    if (symbolName !== null || query !== null || kind !== null || startLine !== null) {
      return conflict('observation_id pages an observed scope: it is exclusive with symbol_name, query, kind and start_line.');
    }
    return { mode: 'page', observationId, page };
  }
  if (symbolName !== null) {
    if (query !== null) return conflict('query filters candidate discovery; an exact selection by symbol_name takes none.');
    return { mode: 'select', symbolName, kind, startLine, page };
  }
  if (startLine !== null) return conflict('start_line narrows an exact selection: give symbol_name with it.');
  return { mode: 'discover', query, kind };
}
