import { sha256Hex } from '@palimpsest/core/text/sha256';
import type {
  CoverageGap,
  GraphBoundary,
  GraphEdge,
  GraphNode,
  ProjectState,
} from '@palimpsest/core/structure/code-graph.port';
import type { DeclFact, FileFacts, ImportFact, RefFact } from './file-facts';
import { resolveImport, type Resolution } from './module-resolution';

/**
 * The declared layer of one project state: the nodes its files declare and the edges their uses make,
 * resolved by name (the file's own top-level names, then its imports, following re-exports). Built from
 * the per-file facts on demand: a query reads only the files that use the name it asks about.
 */


interface FileNodes {
  nodes: GraphNode[];
  /** Parallel to facts.decls. */
  declIds: string[];
  moduleId: string;
}

type Target = { kind: 'node'; id: string } | { kind: 'boundary'; boundary: Omit<GraphBoundary, 'from' | 'site'> } | { kind: 'none' };

/** A file's nodes are a function of its path and content: shared by every state holding that file as it is. */
export type FileNodesCache = Map<string, FileNodes>;

export class DeclaredGraph {
  private readonly perFile = new Map<string, FileNodes>();
  private readonly byId = new Map<string, { path: string; index: number }>();
  private allNodes: GraphNode[] | null = null;
  private readonly resolutions = new Map<string, Resolution>();

  constructor(
    readonly state: ProjectState,
    readonly files: ReadonlyMap<string, FileFacts>,
    private readonly shared: FileNodesCache = new Map(),
  ) {}

  paths(): string[] {
    return [...this.files.keys()].sort();
  }

  fileNodes(path: string): FileNodes {
    let entry = this.perFile.get(path);
    if (entry) return entry;
    const sharedKey = `${path}\0${this.state.get(path)}`;
    entry = this.shared.get(sharedKey);
    if (entry) {
      this.perFile.set(path, entry);
      return entry;
    }
    const facts = this.files.get(path)!;
    const moduleId = `module:${path}`;
    const layers: GraphNode['layers'] = facts.language === 'python' ? ['declared'] : ['declared', 'resolved'];
    const lineCount = facts.decls.reduce((m, d) => Math.max(m, d.range.end.line), 1);
    const nodes: GraphNode[] = [{
      id: moduleId, kind: 'module', name: path.slice(path.lastIndexOf('/') + 1), path, version: sha256Hex(`module\0${path}\0${this.state.get(path)}`),
      qualified_name: path, language: facts.language, range: { start: { path, line: 1, column: 1 }, end: { path, line: lineCount, column: 1 } }, signature: '', layers,
    }];
    const used = new Set<string>();
    const declIds = facts.decls.map((d) => {
      let id = `${d.kind}:${path}#${d.qualified}`;
      if (used.has(id)) id = `${id}@${d.range.start.line}`;
      used.add(id);
      nodes.push({
        id, kind: d.kind, name: d.name, path, version: sha256Hex(`${d.kind}\0${d.name}\0${path}\0${d.textHash}`), qualified_name: d.qualified,
        language: facts.language, range: { start: { path, ...d.range.start }, end: { path, ...d.range.end } }, signature: d.signature, layers,
      });
      return id;
    });
    entry = { nodes, declIds, moduleId };
    this.perFile.set(path, entry);
    this.shared.set(sharedKey, entry);
    return entry;
  }

  nodes(): readonly GraphNode[] {
    if (!this.allNodes) this.allNodes = this.paths().flatMap((p) => this.fileNodes(p).nodes);
    return this.allNodes;
  }

  node(id: string): GraphNode | null {
    const at = this.locate(id);
    return at ? this.fileNodes(at.path).nodes[at.index] : null;
  }

  /** The declaration behind a node id (null for a module). */
  decl(id: string): { path: string; decl: DeclFact | null } | null {
    const at = this.locate(id);
    if (!at) return null;
    return { path: at.path, decl: at.index === 0 ? null : this.files.get(at.path)!.decls[at.index - 1] };
  }

  /** The innermost declaration around an offset, else the file's module node. */
  enclosing(path: string, offset: number): string {
    const facts = this.files.get(path)!;
    const ids = this.fileNodes(path);
    let best = -1;
    facts.decls.forEach((d, i) => {
      if (d.start <= offset && offset < d.end && (best < 0 || d.start >= facts.decls[best].start)) best = i;
    });
    return best < 0 ? ids.moduleId : ids.declIds[best];
  }

  /** Node ids are `kind:path#qualified` (module: `module:path`); looked up without parsing them for more than the path. */
  private locate(id: string): { path: string; index: number } | null {
    const hit = this.byId.get(id);
    if (hit) return hit;
    const colon = id.indexOf(':');
    const hash = id.indexOf('#', colon);
    const path = id.slice(colon + 1, hash < 0 ? undefined : hash);
    if (colon < 0 || !this.files.has(path)) return null;
    const index = this.fileNodes(path).nodes.findIndex((n) => n.id === id);
    if (index < 0) return null;
    this.byId.set(id, { path, index });
    return { path, index };
  }

  resolution(from: string, source: string): Resolution {
    const key = `${from}\0${source}`;
    let r = this.resolutions.get(key);
    if (!r) {
      r = resolveImport(this.state, from, source, this.files.get(from)!.language);
      this.resolutions.set(key, r);
    }
    return r;
  }

  /** The node a module exports under a name (`default`: its default export), following re-exports. */
  exported(path: string, name: string, depth = 0): string | null {
    const facts = this.files.get(path);
    if (!facts || depth > 8) return null;
    const ids = this.fileNodes(path);
    const i = facts.decls.findIndex((d) => d.qualified === name || (name === 'default' && d.exportedDefault));
    if (i >= 0) return ids.declIds[i];
    for (const imp of facts.imports) {
      if (!imp.reexport || (imp.local !== name && imp.local !== '*')) continue;
      const r = this.resolution(path, imp.source);
      if (r.kind !== 'file') continue;
      const hit = this.exported(r.path, imp.local === '*' ? name : imp.imported, depth + 1);
      if (hit) return hit;
    }
    return null;
  }

  /** What a use names: a node of the state, a boundary (a package, an unknown callee) or nothing to follow. */
  target(path: string, ref: RefFact): Target {
    const facts = this.files.get(path)!;
    if (ref.qualifier !== null) return this.memberTarget(path, ref);
    const local = facts.decls.findIndex((d) => d.qualified === ref.name);
    if (local >= 0) return { kind: 'node', id: this.fileNodes(path).declIds[local] };
    const imp = facts.imports.find((i) => i.local === ref.name && !i.reexport);
    if (imp) return this.importTarget(path, imp);
    return ref.kind === 'calls' ? { kind: 'boundary', boundary: { kind: 'unresolved_name', name: ref.name, module: null } } : { kind: 'none' };
  }

  importTarget(path: string, imp: ImportFact): Target {
    if (imp.imported === '*') return { kind: 'none' };
    const r = this.resolution(path, imp.source);
    if (r.kind === 'external') return { kind: 'boundary', boundary: { kind: 'external_module', name: imp.imported, module: imp.source } };
    if (r.kind === 'unresolved') return { kind: 'none' };
    const id = this.exported(r.path, imp.imported);
    return id ? { kind: 'node', id } : { kind: 'none' };
  }

  private memberTarget(path: string, ref: RefFact): Target {
    const facts = this.files.get(path)!;
    if (ref.qualifier === 'this' || ref.qualifier === 'self') {
      const owner = this.node(this.enclosing(path, ref.offset))?.qualified_name ?? '';
      const cls = owner.includes('.') ? owner.slice(0, owner.lastIndexOf('.')) : owner;
      const i = facts.decls.findIndex((d) => d.qualified === `${cls}.${ref.name}`);
      return i >= 0 ? { kind: 'node', id: this.fileNodes(path).declIds[i] } : { kind: 'none' };
    }
    const ns = facts.imports.find((i) => i.local === ref.qualifier && !i.reexport && this.namespace(path, i).kind !== 'unresolved');
    if (!ns) return { kind: 'none' };
    const r = this.namespace(path, ns);
    if (r.kind === 'external') return { kind: 'boundary', boundary: { kind: 'external_module', name: ref.name, module: ns.source } };
    if (r.kind !== 'file') return { kind: 'none' };
    const id = this.exported(r.path, ref.name);
    return id ? { kind: 'node', id } : { kind: 'none' };
  }

  /**
   * The module an import binds as a namespace: `import * as ns`, Python's `import a.b`, and Python's
   * `from . import mod` of a submodule; unresolved when the import binds a name, not a module.
   */
  namespace(path: string, imp: ImportFact): Resolution {
    if (imp.imported === '*') return this.resolution(path, imp.source);
    if (this.files.get(path)!.language !== 'python') return { kind: 'unresolved' };
    const sub = this.resolution(path, imp.source.endsWith('.') ? imp.source + imp.imported : `${imp.source}.${imp.imported}`);
    return sub.kind === 'file' ? sub : { kind: 'unresolved' };
  }

  /** Every use of a node in the state, declared layer: from the enclosing node, with its site. */
  incoming(id: string): { edges: GraphEdge[]; gaps: CoverageGap[] } {
    const node = this.node(id);
    if (!node || node.kind === 'module') return { edges: [], gaps: [] };
    const edges: GraphEdge[] = [];
    const gaps: CoverageGap[] = [];
    for (const path of this.paths()) {
      const facts = this.files.get(path)!;
      const aliases = new Set([node.name]);
      let importsIt = path === node.path;
      for (const imp of facts.imports) {
        const ns = this.namespace(path, imp);
        if (ns.kind === 'file' && (ns.path === node.path || this.exported(ns.path, node.name) === id)) importsIt = true;
        if (imp.imported !== node.name && imp.imported !== 'default' && imp.imported !== '*') continue;
        const r = this.resolution(path, imp.source);
        if (r.kind === 'unresolved' && imp.imported !== 'default') gaps.push(unresolvedGap(path, imp));
        if (r.kind !== 'file') continue;
        const t = this.importTarget(path, imp);
        if (t.kind === 'node' && t.id === id) {
          importsIt = true;
          aliases.add(imp.local);
          edges.push(edge(this.fileNodes(path).moduleId, 'imports', id, { path, ...imp.at }));
        }
      }
      if (!importsIt && !facts.names.has(node.name)) continue;
      for (const ref of facts.refs) {
        if (!aliases.has(ref.name) && !(ref.qualifier !== null && ref.name === node.name)) continue;
        const t = this.target(path, ref);
        if (t.kind === 'node' && t.id === id) edges.push(edge(this.enclosing(path, ref.offset), ref.kind, id, { path, ...ref.at }));
      }
      if (importsIt) for (const d of facts.dynamics) gaps.push(dynamicGap(path, d.at, d.text));
    }
    return { edges, gaps };
  }

  /** What a node uses, declared layer (a module: its uses outside any declaration, and its imports). */
  outgoing(id: string): { edges: GraphEdge[]; boundaries: GraphBoundary[]; gaps: CoverageGap[] } {
    const at = this.decl(id);
    if (!at) return { edges: [], boundaries: [], gaps: [] };
    const facts = this.files.get(at.path)!;
    const inside = (offset: number) => (at.decl ? at.decl.start <= offset && offset < at.decl.end : this.enclosing(at.path, offset) === id);
    const out = { edges: [] as GraphEdge[], boundaries: [] as GraphBoundary[], gaps: [] as CoverageGap[] };
    const take = (t: Target, kind: GraphEdge['kind'], site: { line: number; column: number }) => {
      const s = { path: at.path, ...site };
      if (t.kind === 'node' && t.id !== id) out.edges.push(edge(id, kind, t.id, s));
      if (t.kind === 'boundary') out.boundaries.push({ ...t.boundary, from: id, site: s });
    };
    for (const ref of facts.refs) if (inside(ref.offset)) take(this.target(at.path, ref), ref.kind, ref.at);
    if (!at.decl) {
      for (const imp of facts.imports) {
        if (this.resolution(at.path, imp.source).kind === 'unresolved') out.gaps.push(unresolvedGap(at.path, imp));
        else take(this.importTarget(at.path, imp), 'imports', imp.at);
      }
    }
    for (const d of facts.dynamics) if (inside(d.offset)) out.gaps.push(dynamicGap(at.path, d.at, d.text));
    return out;
  }
}

function edge(from: string, kind: GraphEdge['kind'], to: string, site: GraphEdge['site']): GraphEdge {
  return { from, kind, to, layer: 'declared', depth: 1, site };
}

function unresolvedGap(path: string, imp: ImportFact): CoverageGap {
  return { reason: 'unresolved_import', site: { path, ...imp.at }, detail: `${path} imports ${imp.imported} from '${imp.source}', which names no file of this state` };
}

function dynamicGap(path: string, at: { line: number; column: number }, text: string): CoverageGap {
  return { reason: 'dynamic_call', site: { path, ...at }, detail: `a call through ${text} cannot be followed without running the code` };
}
