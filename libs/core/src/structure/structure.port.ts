/**
 * The structural engine's port: a parser that reads one canonical text and names its scopes. The adapter
 * (libs/structure) holds the grammars; everything here is pure and shared by observation and, later,
 * observed submission, which re-verifies scopes with the same engine identity.
 */

/**
 * The seed names function, class, method, variable (code), section, code_block, table_row (Markdown) and
 * config_item, object (YAML/JSON) and leaves the list open ("etc."): TypeScript's interfaces, type
 * aliases (and Python's `type`), enums and namespaces (`declare module`, `declare global`) get kinds of
 * their own, since folding them into class/variable would make `kind` useless for telling them apart.
 * Their members use the code kinds: interface property signatures and enum members are variables.
 */
export const CODE_KINDS = ['function', 'class', 'method', 'variable', 'interface', 'type', 'enum', 'namespace'] as const;
export const MARKDOWN_KINDS = ['section', 'code_block', 'table_row'] as const;
export const CONFIG_KINDS = ['config_item', 'object'] as const;
export const SYMBOL_KINDS = [...CODE_KINDS, ...MARKDOWN_KINDS, ...CONFIG_KINDS] as const;
export type SymbolKind = (typeof SYMBOL_KINDS)[number];

export const STRUCTURE_LANGUAGES = ['typescript', 'tsx', 'javascript', 'python', 'markdown', 'yaml', 'json'] as const;
export type StructureLanguage = (typeof STRUCTURE_LANGUAGES)[number];

/** One named scope. Offsets are code points into the canonical LF text, end exclusive; lines are 1-based. */
export interface StructureSymbol {
  name: string;
  kind: SymbolKind;
  /** The enclosing symbol's qualified name (`Outer.Inner`, a section path, a key path), or null at top level. */
  parent: string | null;
  start: number;
  end: number;
  start_line: number;
  end_line: number;
}

/** What one engine pass over one text found, and exactly which engine found it. */
export interface StructureOutline {
  language: StructureLanguage;
  /** e.g. "palimpsest-structure@2 web-tree-sitter@0.27.2 tree-sitter-typescript@0.23.2": recorded with each observation. */
  engine: string;
  /** Document order (start ascending, outer before inner). */
  symbols: StructureSymbol[];
}

/** The adapter: null when no grammar serves this file. */
export interface StructureEngine {
  languageOf(filename: string, contentType: string): StructureLanguage | null;
  outline(language: StructureLanguage, text: string): Promise<StructureOutline>;
}

/** `parent.name`, the identity an exact selection may use besides the bare name. */
export function qualifiedName(symbol: Pick<StructureSymbol, 'name' | 'parent'>): string {
  return symbol.parent === null ? symbol.name : `${symbol.parent}.${symbol.name}`;
}
