import type { NextAction } from '@palimpsest/core/errors/error-model';
import type { Params } from '@palimpsest/protocol/catalog/operation-types';
import { observeScope } from '@palimpsest/protocol/catalog/operations/scopes.operations';
import { readySelection, type ReadySelection } from '@palimpsest/core/structure/ready-selection';
import { ScopePaths } from '@palimpsest/core/structure/scope-paths';
import { bundleCaps, resolveBundle, SCOPE_LIMITS, type BundleSelector } from '@palimpsest/core/structure/scope-selection';
import { qualifiedName, type StructureSymbol, type SymbolKind } from '@palimpsest/core/structure/structure.port';

export const OBSERVE_SCOPE = observeScope.name;
type ObserveParams = Params<typeof OBSERVE_SCOPE>;
/** Ready selections offered for one ambiguous selection; a discovery call lists the rest. */
const READY_SELECTIONS = 8;

/** The page arguments a ready call keeps from the request, so that it answers as the request would have. */
export interface PageArgs {
  max_chars?: number | null;
  include_line_starts?: boolean;
}

const describe = (s: StructureSymbol) => `the ${s.kind} ${qualifiedName(s)} (lines ${s.start_line}-${s.end_line})`;

export function observeAction(targetId: string, symbol: StructureSymbol, selection: ReadySelection, page: PageArgs, why = 'Observe'): NextAction {
  return { operation: OBSERVE_SCOPE, reason: `${why} ${describe(symbol)}.`, params: { target_file_id: targetId, ...selection, ...page } };
}

/** Discovery: a read that records nothing and lists the candidates an exact selection can name. */
export function discoveryAction(targetId: string, query: string | null, kind: SymbolKind | null, reason: string): NextAction {
  const params: ObserveParams = { target_file_id: targetId };
  if (query !== null) params.query = query;
  if (kind !== null) params.kind = kind;
  return { operation: OBSERVE_SCOPE, reason, params };
}

/** The ready selection of a symbol on this outline, as an observe call, or null when none names it alone. */
export function readyObserveAction(targetId: string, symbols: StructureSymbol[], symbol: StructureSymbol, page: PageArgs, why?: string, paths?: ScopePaths): NextAction | null {
  const selection = readySelection(symbols, symbol, paths);
  return selection ? observeAction(targetId, symbol, selection, page, why) : null;
}

/** One complete observe call per candidate of an ambiguous exact selection (each checked to resolve to it alone), then discovery for the rest. */
export function ambiguousSelectionActions(targetId: string, symbols: StructureSymbol[], candidates: StructureSymbol[], total: number, asked: { symbolName: string; kind: SymbolKind | null }, page: PageArgs): NextAction[] {
  const paths = new ScopePaths(symbols);
  const ready = candidates
    .slice(0, READY_SELECTIONS)
    .map((c) => readyObserveAction(targetId, symbols, c, page, 'Observe', paths))
    .filter((a): a is NextAction => a !== null);
  if (total > ready.length) ready.push(discoveryAction(targetId, asked.symbolName, asked.kind, `List all ${total} candidates and select one by the path or kind shown.`));
  return ready;
}

/** The same bundle with one selection replaced, offered only when the whole bundle then resolves within its caps. */
function bundleWith(targetId: string, symbols: StructureSymbol[], selections: BundleSelector[], page: PageArgs, index: number, replacement: BundleSelector[]): ObserveParams | null {
  const next = [...selections.slice(0, index), ...replacement, ...selections.slice(index + 1)];
  if (next.length === 0) return null;
  const resolved = resolveBundle(symbols, next);
  if (!resolved.ok || bundleCaps(resolved.symbols, page.max_chars ?? SCOPE_LIMITS.pageDefault)) return null;
  return { target_file_id: targetId, selections: next, ...page };
}

/** A bundle's ambiguous selection: the bundle again with each candidate's ready selection in its place. */
export function ambiguousBundleActions(targetId: string, symbols: StructureSymbol[], selections: BundleSelector[], index: number, candidates: StructureSymbol[], page: PageArgs): NextAction[] {
  const paths = new ScopePaths(symbols);
  const out: NextAction[] = [];
  for (const c of candidates) {
    if (out.length === READY_SELECTIONS) break;
    const selection = readySelection(symbols, c, paths, false);
    const params = selection && bundleWith(targetId, symbols, selections, page, index, [selection]);
    if (params) out.push({ operation: OBSERVE_SCOPE, reason: `Observe the bundle with selection ${index} naming ${describe(c)}.`, params });
  }
  if (out.length < candidates.length) out.push(discoveryAction(targetId, selections[index].symbol_name, selections[index].kind ?? null, `List the candidates of selection ${index} and name one by the path or kind shown.`));
  return out;
}

/** A bundle refused for one selection (a duplicate, an empty or overlapping scope): the bundle without it. */
export function bundleWithoutActions(targetId: string, symbols: StructureSymbol[], selections: BundleSelector[], index: number, page: PageArgs): NextAction[] {
  const params = bundleWith(targetId, symbols, selections, page, index, []);
  const rest: NextAction[] = params ? [{ operation: OBSERVE_SCOPE, reason: `Observe the bundle without selection ${index}.`, params }] : [];
  return [...rest, discoveryAction(targetId, null, null, 'List the scopes to choose disjoint, non-empty ones.')];
}

/**
 * A bundle over its caps: the same bundle with a page size small enough for its first pages, else the
 * longest leading run of its selections that fits (observe the rest in another bundle).
 */
export function bundleTooLargeActions(targetId: string, symbols: StructureSymbol[], selections: BundleSelector[], page: PageArgs): NextAction[] {
  const resolved = resolveBundle(symbols, selections);
  const out: NextAction[] = [];
  if (resolved.ok) {
    const maxChars = Math.floor(SCOPE_LIMITS.bundleInitialCodePoints / selections.length);
    if (bundleCaps(resolved.symbols, maxChars) === null) {
      out.push({ operation: OBSERVE_SCOPE, reason: `Observe the same bundle with first pages of ${maxChars} code points (page on with observation_id).`, params: { target_file_id: targetId, selections, ...page, max_chars: maxChars } });
    }
  }
  for (let k = selections.length - 1; k >= 1 && out.length === 0; k--) {
    const head = resolveBundle(symbols, selections.slice(0, k));
    if (head.ok && bundleCaps(head.symbols, page.max_chars ?? SCOPE_LIMITS.pageDefault) === null) {
      out.push({ operation: OBSERVE_SCOPE, reason: `Observe the first ${k} selections; observe the rest in another bundle.`, params: { target_file_id: targetId, selections: selections.slice(0, k), ...page } });
    }
  }
  return out.length ? out : [discoveryAction(targetId, null, null, 'List the scopes to choose smaller ones.')];
}

/** Separators agents write between a scope and its parent: the dot a selection reads, and those of other tools (`::`, `#`, `/`, `>`). */
const SEPARATOR = /\s*(?:\.|::|#|\/|>)\s*/u;

/** Where a name matches nothing: the discovery that lists what it is near (by its last segment when the whole finds nothing). */
export function notFoundActions(targetId: string, symbols: StructureSymbol[], symbolName: string, kind: SymbolKind | null): NextAction[] {
  const hits = (needle: string) => symbols.some((s) => (kind === null || s.kind === kind) && qualifiedName(s).toLowerCase().includes(needle.toLowerCase()));
  const last = symbolName.split(SEPARATOR).filter((p) => p.trim() !== '').pop() ?? null;
  const query = hits(symbolName) ? symbolName : last !== null && last !== symbolName && hits(last) ? last : null;
  return [discoveryAction(targetId, query, kind, query === null ? 'List the scopes of this target and select one by a name shown.' : `List the scopes matching ${JSON.stringify(query)} and select one by the path shown.`)];
}
