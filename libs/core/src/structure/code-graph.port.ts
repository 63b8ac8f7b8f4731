/**
 * The code graph's port: what the project declares and uses, from the parsers (declared layer, every
 * supported language) and from a real resolver where one exists (resolved layer: the TypeScript language
 * service for TypeScript and JavaScript). The adapter (libs/structure/src/graph) holds the parsers; the
 * use cases (libs/application/src/code-graph) shape its facts into answers with coverage and truncation.
 *
 * An index is content-addressed: a project state is a map path → SHA-256 of the file's content, facts are
 * kept per content hash, and the graph of a state is the union of its files' facts. Two states that share
 * a file share its facts; a change to one file re-indexes that file only.
 */

/** path (relative, `/` separators) → lowercase hex SHA-256 of the file's bytes. */
export type ProjectState = ReadonlyMap<string, string>;

export const GRAPH_LAYERS = ['declared', 'resolved'] as const;
export type GraphLayer = (typeof GRAPH_LAYERS)[number];

/** calls: a call of the node; references: any other use; imports: an import or re-export naming it; extends: a heritage clause. */
export const GRAPH_EDGE_KINDS = ['calls', 'references', 'imports', 'extends'] as const;
export type GraphEdgeKind = (typeof GRAPH_EDGE_KINDS)[number];

/** The code kinds of structure.port.ts, plus `module`: a file's top level, the `from` of uses outside any declaration. */
export type GraphNodeKind = 'module' | 'function' | 'class' | 'method' | 'variable' | 'interface' | 'type' | 'enum';

export type GraphLanguage = 'typescript' | 'tsx' | 'javascript' | 'python';

/** A position: 1-based line and column, columns counting Unicode scalar values. */
export interface GraphSite {
  path: string;
  line: number;
  column: number;
}

export interface GraphNodeSummary {
  id: string;
  kind: GraphNodeKind;
  name: string;
  path: string;
  /** SHA-256 of kind, name, path and the declaration's text: changes whenever the node does. */
  version: string;
}

export interface GraphNode extends GraphNodeSummary {
  qualified_name: string;
  language: GraphLanguage;
  range: { start: GraphSite; end: GraphSite };
  /** The declaration up to its body (a function's parameters and return type, a class's heritage). */
  signature: string;
  /** The layers that know this node's relationships (python: declared only). */
  layers: GraphLayer[];
}

export interface GraphEdge {
  from: string;
  kind: GraphEdgeKind;
  to: string;
  layer: GraphLayer;
  depth: number;
  site: GraphSite;
}

export const GAP_REASONS = ['dynamic_call', 'unresolved_import', 'declared_only_language', 'parse_error'] as const;
export type GapReason = (typeof GAP_REASONS)[number];

export interface CoverageGap {
  reason: GapReason;
  site: GraphSite | null;
  detail: string;
}

/** Where a walk met code it cannot see through (an external module, a name it could not resolve). */
export interface GraphBoundary {
  kind: 'external_module' | 'unresolved_name';
  from: string;
  name: string;
  module: string | null;
  site: GraphSite;
}

/** One step of a walk: the edges found and what limits what they prove. */
export interface GraphStep {
  edges: GraphEdge[];
  boundaries: GraphBoundary[];
  gaps: CoverageGap[];
}

export type GraphDirection = 'incoming' | 'outgoing';

/** One state's graph. Nodes in document order (path order, then position). */
export interface CodeGraphView {
  readonly state: ProjectState;
  nodes(): readonly GraphNode[];
  node(id: string): GraphNode | null;
  /** Uses of the nodes (incoming) or what they use (outgoing), one step, on the layers asked. */
  step(ids: readonly string[], direction: GraphDirection, layers: readonly GraphLayer[]): Promise<GraphStep>;
  /** Gaps that hold for the whole state (files that did not parse). */
  stateGaps(): CoverageGap[];
}

/** The adapter. `read` returns a file's text for its hash (called only for hashes not indexed yet). */
export interface CodeGraphEngine {
  languageOf(path: string): GraphLanguage | null;
  view(state: ProjectState, read: (path: string, hash: string) => Promise<string>): Promise<CodeGraphView>;
  /** The nodes one file declares with this content (`hash`: SHA-256 of its bytes, `text` their UTF-8), as every view holding it names them. */
  nodesOf(path: string, hash: string, text: string): Promise<readonly GraphNode[]>;
}
