import type {
  CodeGraphEngine,
  CodeGraphView,
  CoverageGap,
  GraphDirection,
  GraphEdge,
  GraphLanguage,
  GraphLayer,
  GraphNode,
  GraphStep,
  ProjectState,
} from '@palimpsest/core/structure/code-graph.port';
import { declaredFacts } from './declared-facts';
import { DeclaredGraph, type FileNodesCache } from './declared-graph';
import { LineIndex, type FileFacts } from './file-facts';
import { ResolvedLayer } from './resolved-layer';

/** States whose views (and so whose facts) are kept: an earlier snapshot answers without re-reading its files. */
const KEPT_VIEWS = 16;

const LANGUAGES: [RegExp, GraphLanguage][] = [
  [/\.(ts|mts|cts)$/, 'typescript'],
  [/\.tsx$/, 'tsx'],
  [/\.(js|jsx|mjs|cjs)$/, 'javascript'],
  [/\.py$/, 'python'],
];

/**
 * The code graph adapter: per-file facts kept by content hash (the same content is parsed once, whatever
 * state or path it appears under), a state's declared graph made from its files' facts, and one resolved
 * layer (the TypeScript language service) shared by the states it is asked about.
 */
export class TreeSitterCodeGraph implements CodeGraphEngine {
  private readonly facts = new Map<string, Promise<FileFacts>>();
  private readonly texts = new Map<string, string>();
  private resolvedLayer: ResolvedLayer | null = null;
  private readonly views = new Map<ProjectState, CodeGraphView>();
  private readonly fileNodes: FileNodesCache = new Map();
  /** Files parsed since this engine started: what an incremental update cost. */
  parsed = 0;

  languageOf(path: string): GraphLanguage | null {
    if (path.endsWith('.d.ts')) return null;
    return LANGUAGES.find(([re]) => re.test(path))?.[1] ?? null;
  }

  async view(state: ProjectState, read: (path: string, hash: string) => Promise<string>): Promise<CodeGraphView> {
    const known = this.views.get(state);
    if (known) return known;
    const files = new Map<string, FileFacts>();
    for (const [path, hash] of state) {
      const language = this.languageOf(path);
      if (!language) continue;
      files.set(path, await this.factsOf(language, path, hash, read));
    }
    const view = new StateView(state, new DeclaredGraph(state, files, this.fileNodes), () => this.resolved(), (hash) => this.texts.get(hash));
    this.views.set(state, view);
    if (this.views.size > KEPT_VIEWS) this.views.delete(this.views.keys().next().value!);
    this.prune(state);
    return view;
  }

  async nodesOf(path: string, hash: string, text: string): Promise<readonly GraphNode[]> {
    const language = this.languageOf(path);
    if (!language) return [];
    const facts = await this.factsOf(language, path, hash, async () => text);
    return new DeclaredGraph(new Map([[path, hash]]), new Map([[path, facts]]), this.fileNodes).fileNodes(path).nodes;
  }

  /**
   * Facts, texts and nodes of contents no kept view holds are dropped once they outnumber the newest
   * state's files twice over: an engine that has seen many edits keeps what its recent states read.
   */
  private prune(newest: ProjectState): void {
    if (this.facts.size <= 2 * newest.size + 1024) return;
    const live = new Set<string>();
    for (const state of this.views.keys()) for (const [path, hash] of state) live.add(hash).add(`${path}\0${hash}`);
    for (const key of this.facts.keys()) if (!live.has(key.slice(key.indexOf(':') + 1))) this.facts.delete(key);
    for (const hash of this.texts.keys()) if (!live.has(hash)) this.texts.delete(hash);
    for (const key of this.fileNodes.keys()) if (!live.has(key)) this.fileNodes.delete(key);
  }

  /** The language service starts on the first resolved query. */
  private resolved(): ResolvedLayer {
    return (this.resolvedLayer ??= new ResolvedLayer((hash) => this.texts.get(hash)));
  }

  private factsOf(language: GraphLanguage, path: string, hash: string, read: (path: string, hash: string) => Promise<string>): Promise<FileFacts> {
    const key = `${language}:${hash}`;
    let facts = this.facts.get(key);
    if (!facts) {
      facts = read(path, hash).then((text) => {
        if (language !== 'python') this.texts.set(hash, text);
        this.parsed++;
        return declaredFacts(language, text);
      });
      facts.catch(() => this.facts.delete(key));
      this.facts.set(key, facts);
    }
    return facts;
  }
}

class StateView implements CodeGraphView {
  constructor(
    readonly state: ProjectState,
    private readonly declared: DeclaredGraph,
    private readonly resolvedLayer: () => ResolvedLayer,
    private readonly textOf: (hash: string) => string | undefined,
  ) {}

  nodes() {
    return this.declared.nodes();
  }

  node(id: string) {
    return this.declared.node(id);
  }

  stateGaps(): CoverageGap[] {
    return this.declared
      .paths()
      .filter((p) => this.declared.files.get(p)!.parseError)
      .map((p) => ({ reason: 'parse_error' as const, site: { path: p, line: 1, column: 1 }, detail: `${p} has syntax errors: its facts are what the parser recovered` }));
  }

  async step(ids: readonly string[], direction: GraphDirection, layers: readonly GraphLayer[]): Promise<GraphStep> {
    const out: GraphStep = { edges: [], boundaries: [], gaps: [] };
    for (const id of ids) {
      const node = this.declared.node(id);
      if (!node) continue;
      const declared = direction === 'incoming' ? { boundaries: [], ...this.declared.incoming(id) } : this.declared.outgoing(id);
      out.gaps.push(...declared.gaps);
      out.boundaries.push(...declared.boundaries);
      const resolvedEdges: GraphEdge[] = [];
      if (layers.includes('resolved')) {
        if (node.layers.includes('resolved')) resolvedEdges.push(...this.resolvedStep(id, direction));
        else out.gaps.push({ reason: 'declared_only_language', site: null, detail: `${node.language} has the declared layer only: ${id}'s edges are matched by name, not resolved` });
      }
      out.edges.push(...merge(layers.includes('declared') ? declared.edges : [], resolvedEdges));
    }
    return out;
  }

  private resolvedStep(id: string, direction: GraphDirection): GraphEdge[] {
    const at = this.declared.decl(id);
    if (!at) return [];
    this.resolvedLayer().use(this.state);
    return direction === 'incoming' ? this.resolvedIncoming(id, at.path, at.decl) : this.resolvedOutgoing(id, at.path, at.decl);
  }

  private resolvedIncoming(id: string, path: string, decl: { nameStart: number } | null): GraphEdge[] {
    if (!decl) return [];
    const edges: GraphEdge[] = [];
    for (const span of this.resolvedLayer().references(path, decl.nameStart)) {
      if (span.path === path && span.offset === decl.nameStart) continue;
      const facts = this.declared.files.get(span.path);
      if (!facts) continue;
      const imp = facts.imports.find((i) => i.offset === span.offset);
      const ref = facts.refs.find((r) => r.offset === span.offset);
      const from = imp ? this.declared.fileNodes(span.path).moduleId : this.declared.enclosing(span.path, span.offset);
      const at = imp?.at ?? ref?.at ?? this.position(span.path, span.offset);
      edges.push({ from, kind: imp ? 'imports' : ref?.kind ?? 'references', to: id, layer: 'resolved', depth: 1, site: { path: span.path, ...at } });
    }
    return edges;
  }

  private resolvedOutgoing(id: string, path: string, decl: { start: number; end: number } | null): GraphEdge[] {
    const facts = this.declared.files.get(path)!;
    const edges: GraphEdge[] = [];
    for (const ref of facts.refs) {
      if (decl ? ref.offset < decl.start || ref.offset >= decl.end : this.declared.enclosing(path, ref.offset) !== id) continue;
      for (const def of this.resolvedLayer().definitions(path, ref.offset)) {
        const target = this.declared.files.get(def.path)?.decls.findIndex((d) => d.nameStart === def.offset) ?? -1;
        if (target < 0) continue;
        const to = this.declared.fileNodes(def.path).declIds[target];
        if (to !== id) edges.push({ from: id, kind: ref.kind, to, layer: 'resolved', depth: 1, site: { path, ...ref.at } });
      }
    }
    return edges;
  }

  /** A site the declared layer did not record (rare: a use in a position its queries skip). */
  private position(path: string, offset: number): { line: number; column: number } {
    const text = this.textOf(this.state.get(path)!);
    return text === undefined ? { line: 1, column: 1 } : new LineIndex(text).at(offset);
  }
}

/** One edge per (from, to, site): the resolved layer's when both layers found it. */
function merge(declared: GraphEdge[], resolved: GraphEdge[]): GraphEdge[] {
  const key = (e: GraphEdge) => `${e.from}\0${e.to}\0${e.site.path}:${e.site.line}:${e.site.column}`;
  const seen = new Set(resolved.map(key));
  return [...resolved, ...declared.filter((e) => !seen.has(key(e)))];
}
