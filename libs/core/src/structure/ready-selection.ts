import { ScopePaths } from './scope-paths';
import { selectExact } from './scope-selection';
import type { StructureSymbol, SymbolKind } from './structure.port';

/** The arguments of an exact selection that names one symbol, as few as do. */
export interface ReadySelection {
  symbol_name: string;
  kind?: SymbolKind;
  start_line?: number;
}

/**
 * The shortest selection that resolves to exactly this symbol on this outline: its name, then its name
 * under more and more of its enclosing scopes; then each of those with its kind; last its start line.
 * Null when even that names several (two symbols of one name and kind starting on one line), or
 * when a line is needed and not allowed (a bundle's selections take name and kind only).
 */
export function readySelection(symbols: StructureSymbol[], symbol: StructureSymbol, paths: ScopePaths = new ScopePaths(symbols), byLine = true): ReadySelection | null {
  const resolves = (name: string, kind: SymbolKind | null, line: number | null) => {
    const found = selectExact(symbols, name, kind, line, paths);
    return found.kind === 'one' && found.symbol === symbol;
  };
  const named = paths.pathsOf(symbol);
  for (const path of named) if (resolves(path, null, null)) return { symbol_name: path };
  for (const path of named) if (resolves(path, symbol.kind, null)) return { symbol_name: path, kind: symbol.kind };
  if (!byLine) return null;
  if (resolves(symbol.name, null, symbol.start_line)) return { symbol_name: symbol.name, start_line: symbol.start_line };
  if (resolves(symbol.name, symbol.kind, symbol.start_line)) return { symbol_name: symbol.name, kind: symbol.kind, start_line: symbol.start_line };
  return null;
}

/**
 * The smallest symbol holding [start, end) of this outline's text, and holding `insertionAt` strictly
 * inside as an observed insertion must be; null when no symbol does. Of two of one size, the inner.
 */
export function smallestContaining(symbols: StructureSymbol[], start: number, end: number, insertionAt: number | null = null): StructureSymbol | null {
  let best: StructureSymbol | null = null;
  for (const s of symbols) {
    if (s.start > start || end > s.end || s.start === s.end) continue;
    if (insertionAt !== null && !(s.start < insertionAt && insertionAt < s.end)) continue;
    if (best === null || s.end - s.start <= best.end - best.start) best = s;
  }
  return best;
}
