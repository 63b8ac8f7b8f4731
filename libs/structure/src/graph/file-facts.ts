import type { GraphEdgeKind, GraphLanguage, GraphNodeKind } from '@palimpsest/core/structure/code-graph.port';

/**
 * What one file declares and uses, as the parser read it: the facts of one content hash. Offsets are
 * UTF-16 units into the text (tree-sitter's and the TypeScript compiler's unit); lines and columns are
 * 1-based, columns in Unicode scalar values.
 */

export interface Position {
  line: number;
  column: number;
}

export interface DeclFact {
  kind: Exclude<GraphNodeKind, 'module'>;
  name: string;
  qualified: string;
  start: number;
  end: number;
  nameStart: number;
  range: { start: Position; end: Position };
  signature: string;
  /** SHA-256 of the declaration's text (the node version adds kind, name and path). */
  textHash: string;
  exportedDefault: boolean;
}

export interface RefFact {
  name: string;
  /** `ns` of `ns.name`, `this`/`self` of a member use; null for a bare name. */
  qualifier: string | null;
  kind: Exclude<GraphEdgeKind, 'imports'>;
  offset: number;
  at: Position;
}

export interface ImportFact {
  source: string;
  /** The exported name, `default`, or `*` (a namespace import or `export *`). */
  imported: string;
  local: string;
  reexport: boolean;
  /** Where the imported name is written (the statement for a namespace import). */
  offset: number;
  at: Position;
}

export interface DynamicFact {
  offset: number;
  at: Position;
  text: string;
}

export interface FileFacts {
  language: GraphLanguage;
  parseError: boolean;
  decls: DeclFact[];
  refs: RefFact[];
  imports: ImportFact[];
  dynamics: DynamicFact[];
  /** Every name a ref or an import uses, for finding the files that may use a node without reading them all. */
  names: Set<string>;
}

/** Lines and code-point columns from UTF-16 offsets. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  at(offset: number): Position {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    const prefix = this.text.slice(this.starts[lo], offset);
    let column = 1;
    for (let i = 0; i < prefix.length; i++) {
      const c = prefix.charCodeAt(i);
      if (c < 0xdc00 || c > 0xdfff) column++;
    }
    return { line: lo + 1, column };
  }
}
