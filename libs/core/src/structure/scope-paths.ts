import { qualifiedName, type StructureSymbol } from './structure.port';

/**
 * The paths an agent writes for a symbol: its name, then its name under each enclosing scope in turn
 * (`More configuration`, `Options.More configuration`, `Guide.Options.More configuration`), the last
 * being its qualified name. Segments are cut at its ancestors' own qualified names, never at any dot,
 * so a name holding a dot (`v1.2`) is one segment.
 */
export class ScopePaths {
  /** Qualified name → that symbol's parent (the parent path of the parent path). */
  private readonly parentOf = new Map<string, string | null>();

  constructor(symbols: readonly StructureSymbol[]) {
    for (const s of symbols) {
      const q = qualifiedName(s);
      if (!this.parentOf.has(q)) this.parentOf.set(q, s.parent);
    }
  }

  /** Shortest first: the name, each trailing path, the qualified name (no repeats). */
  pathsOf(symbol: StructureSymbol): string[] {
    const qualified = qualifiedName(symbol);
    const out = [symbol.name];
    const seen = new Set<string>([symbol.parent ?? '']);
    let parent = symbol.parent;
    while (parent !== null) {
      const outer = this.parentOf.has(parent) ? (this.parentOf.get(parent) ?? null) : null;
      const path = outer === null ? qualified : qualified.slice(outer.length + 1);
      if (!out.includes(path)) out.push(path);
      // A parent path that names no symbol, or a cycle of dotted names, ends the walk at the qualified name.
      if (outer === null || seen.has(outer)) break;
      seen.add(outer);
      parent = outer;
    }
    if (!out.includes(qualified)) out.push(qualified);
    return out;
  }

  /** Whether `path` names the symbol by a trailing run of its enclosing scopes (its name alone included). */
  names(symbol: StructureSymbol, path: string): boolean {
    const qualified = qualifiedName(symbol);
    if (path === symbol.name || path === qualified) return true;
    if (!qualified.endsWith(`.${path}`)) return false;
    return this.pathsOf(symbol).includes(path);
  }
}
