import { ScopePaths } from './scope-paths';
import { qualifiedName, type StructureSymbol, type SymbolKind } from './structure.port';

/** Seed bounds of observe_scope. */
export const SCOPE_LIMITS = {
  candidates: 200,
  pageDefault: 4000,
  pageMax: 8000,
  bundleSelections: 32,
  bundleTotalCodePoints: 65536,
  bundleInitialCodePoints: 32768,
} as const;

/** Blank or whitespace-only (Unicode whitespace included): refused as a selector; nonblank values are never trimmed. */
export function isBlankSelector(value: string): boolean {
  return /^\s*$/u.test(value);
}

export interface CandidateList {
  candidates: StructureSymbol[];
  total_candidates: number;
  candidates_truncated: boolean;
}

function bounded(matches: StructureSymbol[]): CandidateList {
  return {
    candidates: matches.slice(0, SCOPE_LIMITS.candidates),
    total_candidates: matches.length,
    candidates_truncated: matches.length > SCOPE_LIMITS.candidates,
  };
}

/** Rank of a discovery match: exact name, then prefix, then substring; document order within a rank. */
function rank(symbol: StructureSymbol, needle: string): number {
  const name = symbol.name.toLowerCase();
  const qualified = qualifiedName(symbol).toLowerCase();
  if (name === needle || qualified === needle) return 0;
  if (name.startsWith(needle) || qualified.startsWith(needle)) return 1;
  return 2;
}

/** Candidate discovery: a case-insensitive substring of the name or `parent.name`, optionally one kind. */
export function discoverCandidates(symbols: StructureSymbol[], query: string | null, kind: SymbolKind | null): CandidateList {
  const ofKind = kind === null ? symbols : symbols.filter((s) => s.kind === kind);
  if (query === null) return bounded(ofKind);
  const needle = query.toLowerCase();
  const ranked = ofKind
    .map((symbol, order) => ({ symbol, order, rank: rank(symbol, needle) }))
    .filter(({ symbol }) => symbol.name.toLowerCase().includes(needle) || qualifiedName(symbol).toLowerCase().includes(needle))
    .sort((a, b) => a.rank - b.rank || a.order - b.order);
  return bounded(ranked.map((r) => r.symbol));
}

export type ExactSelection =
  | { kind: 'one'; symbol: StructureSymbol }
  | { kind: 'none' }
  | ({ kind: 'many' } & CandidateList);

/**
 * Exact selection: the name or `parent.name` (the seed's), else a dotted path naming the symbol by a
 * trailing run of its enclosing scopes (`Options.More configuration` under `Guide`). One match or a
 * refusal, never the smallest of several; `start_line` narrows to the symbols that start on that line.
 */
export function selectExact(symbols: StructureSymbol[], symbolName: string, kind: SymbolKind | null, startLine: number | null = null, paths?: ScopePaths): ExactSelection {
  const eligible = symbols.filter((s) => (kind === null || s.kind === kind) && (startLine === null || s.start_line === startLine));
  let matches = eligible.filter((s) => s.name === symbolName || qualifiedName(s) === symbolName);
  if (matches.length === 0 && symbolName.includes('.')) {
    const index = paths ?? new ScopePaths(symbols);
    matches = eligible.filter((s) => index.names(s, symbolName));
  }
  if (matches.length === 0) return { kind: 'none' };
  if (matches.length === 1) return { kind: 'one', symbol: matches[0] };
  return { kind: 'many', ...bounded(matches) };
}

export interface BundleSelector {
  symbol_name: string;
  kind?: SymbolKind | null;
}

export type BundleFailureCode =
  | 'SCOPE_NOT_FOUND'
  | 'AMBIGUOUS_SCOPE_SELECTION'
  | 'DUPLICATE_SCOPE_SELECTION'
  | 'EMPTY_SCOPE_SELECTION'
  | 'OVERLAPPING_SCOPE_SELECTION'
  | 'BUNDLE_RESPONSE_TOO_LARGE';

export interface BundleFailure {
  code: BundleFailureCode;
  /** 0-based index into `selections`, or null for a cap over the whole bundle. */
  selection_index: number | null;
  detail: string;
  candidates?: CandidateList;
}

export type BundleResolution = { ok: true; symbols: StructureSymbol[] } | ({ ok: false } & BundleFailure);

/** Resolves every selection against ONE outline: all exact, unique, non-empty and pairwise disjoint, or the first failure. */
export function resolveBundle(symbols: StructureSymbol[], selections: BundleSelector[]): BundleResolution {
  const chosen: StructureSymbol[] = [];
  const seen = new Set<string>();
  const paths = new ScopePaths(symbols);
  for (const [index, sel] of selections.entries()) {
    const key = `${sel.kind ?? ''}\u0000${sel.symbol_name}`;
    if (seen.has(key)) return fail('DUPLICATE_SCOPE_SELECTION', index, 'This selection repeats an earlier one.');
    seen.add(key);
    const found = selectExact(symbols, sel.symbol_name, sel.kind ?? null, null, paths);
    if (found.kind === 'none') return fail('SCOPE_NOT_FOUND', index, `No symbol is named ${JSON.stringify(sel.symbol_name)}.`);
    if (found.kind === 'many') {
      const { kind: _many, ...candidates } = found;
      return { ...fail('AMBIGUOUS_SCOPE_SELECTION', index, `${found.total_candidates} symbols are named ${JSON.stringify(sel.symbol_name)}.`), candidates };
    }
    if (chosen.includes(found.symbol)) return fail('DUPLICATE_SCOPE_SELECTION', index, 'This selection names the same scope as an earlier one.');
    if (found.symbol.start === found.symbol.end) return fail('EMPTY_SCOPE_SELECTION', index, 'The selected scope is empty.');
    const overlap = chosen.findIndex((c) => c.start < found.symbol.end && found.symbol.start < c.end);
    if (overlap >= 0) return fail('OVERLAPPING_SCOPE_SELECTION', index, `This scope overlaps the scope of selection ${overlap}.`);
    chosen.push(found.symbol);
  }
  return { ok: true, symbols: chosen };
}

function fail(code: BundleFailureCode, selectionIndex: number | null, detail: string): { ok: false } & BundleFailure {
  return { ok: false, code, selection_index: selectionIndex, detail };
}

/** The bundle's response caps: every scope's contents, and every scope's first page. */
export function bundleCaps(symbols: StructureSymbol[], maxChars: number): BundleFailure | null {
  const total = symbols.reduce((n, s) => n + (s.end - s.start), 0);
  if (total > SCOPE_LIMITS.bundleTotalCodePoints) {
    return { code: 'BUNDLE_RESPONSE_TOO_LARGE', selection_index: null, detail: `The scopes hold ${total} code points; a bundle holds at most ${SCOPE_LIMITS.bundleTotalCodePoints}.` };
  }
  const initial = symbols.reduce((n, s) => n + Math.min(s.end - s.start, maxChars), 0);
  if (initial > SCOPE_LIMITS.bundleInitialCodePoints) {
    return { code: 'BUNDLE_RESPONSE_TOO_LARGE', selection_index: null, detail: `The first pages hold ${initial} code points; a bundle answers at most ${SCOPE_LIMITS.bundleInitialCodePoints}.` };
  }
  return null;
}
