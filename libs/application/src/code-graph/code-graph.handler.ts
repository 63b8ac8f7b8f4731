import type { CodeGraphView, GraphEdge, GraphLayer, GraphNode, GraphNodeSummary } from '@palimpsest/core/structure/code-graph.port';
import type { InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { Success } from '@palimpsest/protocol/catalog/operation-types';
import type { AppContext } from '../app-context';
import { workspaceNotConfigured } from '../shared/workspace-not-configured';
import { capped, coverageOf, fitAnswer, limitsOf, type Limits } from './answer-budget';
import { SnapshotTextUnavailable, type NamedState } from './project-states';
import type { RecordedSnapshot } from '@palimpsest/projections/workspace-snapshots/workspace-snapshot.queries';
import { captureLatest, readDisk, type CaptureMode } from '../snapshots/capture-snapshot';
import { snapshotBytes } from '../snapshots/snapshot-bytes';
import { diskFiles } from '../snapshots/disk-files';
import { diskStateOf, type DiskState } from '../snapshots/disk-state';
import { findSnapshot, isLatest, type SnapshotUnknown } from '../snapshots/snapshot-lookup';
import { walk, type WalkedEdge } from './graph-walk';

/**
 * palimpsest_node_find, palimpsest_node_get, palimpsest_graph_query and palimpsest_impact_analyze: reads of
 * the code graph of one project state (latest: the workspace's files now; or an earlier answer's snapshot).
 */

export interface CommonInput {
  snapshot?: string;
  limits?: Partial<Limits>;
}

export interface NotFound {
  status: 'not_found';
  code: 'not_found' | 'snapshot_expired';
  failure_detail: string;
  next_actions: [];
}

type Opened = { named: NamedState; view: CodeGraphView; logSequence: number; disk: DiskState | null };
type Unopened = InvalidArgument | NotFound | SnapshotUnknown;

const ALL_LAYERS: GraphLayer[] = ['declared', 'resolved'];

/**
 * The state an answer reads: `latest` captures the disk as a snapshot read of latest does (recorded, or
 * held for a read-only session), so the answer names the workspace snapshot handle workspace/status and
 * snapshot reads name; a handle reads that snapshot, its texts from the disk or else from the log.
 */
export async function openState(ctx: AppContext, snapshot: string | undefined, mode: CaptureMode): Promise<Opened | Unopened> {
  const root = ctx.workspace;
  if (!root) return workspaceNotConfigured('the code graph indexes the files under the workspace root');
  let recorded: RecordedSnapshot;
  let disk: DiskState | null = null;
  if (isLatest(snapshot)) {
    const now = await readDisk(ctx, root);
    if (!now.ok) return now.answer;
    recorded = (await captureLatest(ctx, root, now.capture, mode)).snapshot;
  } else {
    const found = await findSnapshot(ctx, root, snapshot!);
    if (!found.ok) return found.answer;
    recorded = found.snapshot;
    const now = await diskFiles(root);
    if (!now.ok) return now.answer;
    disk = diskStateOf(recorded.data.files, now.files);
  }
  const { data, position } = recorded;
  const named = ctx.codeGraph.ofFiles(data.snapshot, data.files);
  const fallback = async (path: string, hash: string) => {
    const file = data.files.find((f) => f.path === path && f.sha256 === hash);
    const read = file ? await snapshotBytes(ctx, root, file) : null;
    return read ? read.bytes.toString('utf8') : null;
  };
  try {
    return { named, view: await ctx.codeGraph.view(root, named, fallback), logSequence: position, disk };
  } catch (error) {
    if (!(error instanceof SnapshotTextUnavailable)) throw error;
    return {
      status: 'not_found', code: 'snapshot_expired', next_actions: [],
      failure_detail: `${data.snapshot} can no longer be indexed: ${error.path} changed on disk since and the log does not hold its bytes then (no edit through Palimpsest ever wrote it). Read latest.`,
    };
  }
}

const isOpened = (o: Opened | Unopened): o is Opened => 'view' in o;

export function unknownNodes(view: CodeGraphView, ids: readonly string[]): NotFound | null {
  const missing = ids.filter((id) => !view.node(id));
  if (missing.length === 0) return null;
  return {
    status: 'not_found', code: 'not_found',
    failure_detail: `No node ${missing.join(', ')} in this snapshot: find ids with palimpsest_node_find (ids name a node within one snapshot).`,
    next_actions: [],
  };
}

export const summaryOf = (n: GraphNode): GraphNodeSummary => ({ id: n.id, kind: n.kind, name: n.name, path: n.path, version: n.version });

export const snapshotOf = ({ named, logSequence, disk }: Opened) => ({ id: named.id, log_sequence: logSequence, files: named.state.size, ...(disk ? { disk } : {}) });

export async function nodeFind(ctx: AppContext, input: CommonInput & { query: string; kind?: string; path?: string; limit?: number }, mode: CaptureMode) {
  const opened = await openState(ctx, input.snapshot, mode);
  if (!isOpened(opened)) return opened;
  const { view, named } = opened;
  const q = input.query.trim().toLowerCase();
  const matches = view.nodes().filter((n) =>
    (input.kind === undefined || n.kind === input.kind) && (input.path === undefined || n.path === input.path) &&
    (q === '' || n.name.toLowerCase().includes(q) || n.id.toLowerCase().includes(q)));
  const limits = limitsOf(input.limits);
  const first = capped(matches, input.limit ?? 20, 'limit', 'nodes', (n) => n.id);
  const reasons = first.items.map((n) => ({ node: n.id, reasons: q === '' || n.name.toLowerCase().includes(q) ? ['name'] : ['id'] }));
  const base = { status: 'ok' as const, snapshot: snapshotOf(opened), coverage: coverageOf(view.stateGaps(), named.state.size > 0) };
  return fitAnswer<Success<'palimpsest_node_find'>>(base, [
    { name: 'nodes', items: first.items.map(summaryOf), idOf: (n) => (n as GraphNodeSummary).id, omitted: first.omitted },
    { name: 'matches', items: reasons, idOf: (m) => (m as { node: string }).node },
  ], limits);
}

export async function nodeGet(ctx: AppContext, input: CommonInput & { nodes: string[]; include?: ('edges' | 'body')[] }, mode: CaptureMode) {
  const opened = await openState(ctx, input.snapshot, mode);
  if (!isOpened(opened)) return opened;
  const { view, named } = opened;
  const missing = unknownNodes(view, input.nodes);
  if (missing) return missing;
  const gaps = [...view.stateGaps()];
  const entries = [];
  for (const id of input.nodes) {
    const n = view.node(id)!;
    const entry: Record<string, unknown> = { node: summaryOf(n), qualified_name: n.qualified_name, language: n.language, layers: n.layers, range: n.range, signature: n.signature };
    if (input.include?.includes('body')) entry.body = await ctx.codeGraph.bodyOf(ctx.workspace, named, n);
    if (input.include?.includes('edges')) {
      const incoming = await view.step([id], 'incoming', ALL_LAYERS);
      const outgoing = await view.step([id], 'outgoing', ALL_LAYERS);
      gaps.push(...incoming.gaps, ...outgoing.gaps);
      entry.edges = [
        ...incoming.edges.map((e) => ({ direction: 'incoming', kind: e.kind, layer: e.layer, node: e.from, site: e.site })),
        ...outgoing.edges.map((e) => ({ direction: 'outgoing', kind: e.kind, layer: e.layer, node: e.to, site: e.site })),
      ];
    }
    entries.push(entry);
  }
  const base = { status: 'ok' as const, snapshot: snapshotOf(opened), coverage: coverageOf(gaps) };
  return fitAnswer<Success<'palimpsest_node_get'>>(base, [{ name: 'nodes', items: entries, idOf: (e) => ((e as { node: GraphNodeSummary }).node.id) }], limitsOf(input.limits));
}

export interface GraphQueryInput extends CommonInput {
  from: string[];
  mode: 'dependencies' | 'dependents' | 'references' | 'paths';
  to?: string[];
  layers?: GraphLayer[];
  edge_kinds?: GraphEdge['kind'][];
  transitive?: boolean;
  cursor?: string;
}

export async function graphQuery(ctx: AppContext, input: GraphQueryInput, mode: CaptureMode) {
  const opened = await openState(ctx, input.snapshot, mode);
  if (!isOpened(opened)) return opened;
  const { view, named } = opened;
  const missing = unknownNodes(view, [...input.from, ...(input.to ?? [])]);
  if (missing) return missing;
  if (input.mode === 'paths' && !input.to) return missingTo();
  const offset = cursorOffset(input.cursor, named.id, input);
  if (offset === null) return invalidCursor();
  const limits = limitsOf(input.limits);
  const layers = input.layers ?? ALL_LAYERS;
  const direction = input.mode === 'dependencies' || input.mode === 'paths' ? 'outgoing' : 'incoming';
  const depth = input.transitive || input.mode === 'paths' ? limits.max_depth : 1;
  const found = await walk(view, input.from, direction, layers, input.edge_kinds, depth, limits.max_nodes);
  const paths = input.mode === 'paths' ? pathsOf(found.edges, input.from, input.to!) : null;
  const edges = paths ? paths.edges : input.mode === 'dependents' ? onePerPair(found.edges) : found.edges;
  const page = edges.slice(offset);
  const items = capped(page, limits.max_items, 'max_items', 'edges', (e) => (direction === 'incoming' ? e.from : e.to));
  const mentioned = new Set<string>(input.from);
  for (const e of items.items) mentioned.add(e.from).add(e.to);
  const base = {
    status: 'ok' as const,
    snapshot: snapshotOf(opened),
    coverage: coverageOf([...view.stateGaps(), ...found.gaps]),
    traversed: { direction, edge_kinds: input.edge_kinds ?? ['calls', 'references', 'imports', 'extends'], layers },
    ...(paths ? { paths: paths.paths } : {}),
  };
  const nodes = [...mentioned].map((id) => summaryOf(view.node(id)!));
  return fitAnswer<Success<'palimpsest_graph_query'>>(base, [
    { name: 'nodes', items: nodes, idOf: (n) => (n as GraphNodeSummary).id },
    { name: 'edges', items: items.items, idOf: (e) => (e as GraphEdge).from, omitted: depthOmission(found, items.omitted) },
    { name: 'boundaries', items: found.boundaries, idOf: (b) => (b as { from: string }).from },
  ], limits, (kept) => (offset + kept[1] < edges.length ? cursorFor(named.id, input, offset + kept[1]) : null));
}

/** The shortest path from a start to each end the walk reached (breadth first: the first edge into a node is on a shortest path). */
function pathsOf(edges: WalkedEdge[], from: string[], to: string[]) {
  const into = new Map<string, WalkedEdge>();
  for (const e of edges) if (!into.has(e.to) && !from.includes(e.to)) into.set(e.to, e);
  const used: WalkedEdge[] = [];
  const paths: { from: string; to: string; nodes: string[] }[] = [];
  for (const end of to) {
    if (from.includes(end)) {
      paths.push({ from: end, to: end, nodes: [end] });
      continue;
    }
    const nodes = [end];
    const onPath: WalkedEdge[] = [];
    for (let e = into.get(end); e; e = into.get(e.from)) {
      onPath.unshift(e);
      nodes.unshift(e.from);
      if (from.includes(e.from)) break;
    }
    if (onPath.length > 0 && from.includes(nodes[0])) {
      paths.push({ from: nodes[0], to: end, nodes });
      used.push(...onPath.filter((e) => !used.includes(e)));
    }
  }
  return { paths, edges: used };
}

function missingTo(): InvalidArgument {
  return { status: 'invalid_argument', code: 'missing_to', failure_detail: 'mode paths needs to: the end node ids (1 to 20).', argument: 'to' };
}

function depthOmission(found: { cutAtNodes: string[] }, itemsOmitted: ReturnType<typeof capped>['omitted']) {
  if (itemsOmitted) return itemsOmitted;
  if (found.cutAtNodes.length === 0) return undefined;
  return { reason: 'max_nodes' as const, part: 'edges', count: found.cutAtNodes.length, node_ids: found.cutAtNodes.slice(0, 50) };
}

function onePerPair(edges: WalkedEdge[]): WalkedEdge[] {
  const seen = new Set<string>();
  return edges.filter((e) => {
    const key = `${e.from}\0${e.to}`;
    return !seen.has(key) && seen.add(key) !== undefined;
  });
}

export async function impactAnalyze(ctx: AppContext, input: CommonInput & { targets: string[]; direction?: 'dependents' | 'dependencies' | 'both'; layers?: GraphLayer[] }, mode: CaptureMode) {
  const opened = await openState(ctx, input.snapshot, mode);
  if (!isOpened(opened)) return opened;
  const { view, named } = opened;
  const missing = unknownNodes(view, input.targets);
  if (missing) return missing;
  const limits = limitsOf(input.limits);
  const layers = input.layers ?? ALL_LAYERS;
  const direction = input.direction ?? 'dependents';
  const gaps = [...view.stateGaps()];
  const impacted: Record<string, unknown>[] = [];
  const cut: string[] = [];
  const tests = new Map<string, Set<string>>();
  for (const d of direction === 'both' ? (['incoming', 'outgoing'] as const) : [direction === 'dependents' ? 'incoming' as const : 'outgoing' as const]) {
    const found = await walk(view, input.targets, d, layers, undefined, limits.max_depth, limits.max_nodes);
    gaps.push(...found.gaps);
    cut.push(...found.cutAtNodes);
    for (const e of onePerReached(found.edges, d)) {
      const reached = d === 'incoming' ? e.from : e.to;
      const via = d === 'incoming' ? e.to : e.from;
      const node = view.node(reached)!;
      impacted.push({ node: summaryOf(node), depth: e.depth, from: via, edge_kind: e.kind, layer: e.layer, site: e.site });
      if (d === 'incoming' && isTestPath(node.path)) tests.set(node.path, (tests.get(node.path) ?? new Set()).add(via));
    }
  }
  const base = { status: 'ok' as const, snapshot: snapshotOf(opened), coverage: coverageOf(gaps) };
  const testList = [...tests].map(([path, reaches]) => ({ path, reaches: [...reaches].filter((id) => !isTestPath(view.node(id)!.path)) }));
  const items = capped(impacted, limits.max_items, 'max_items', 'impacted', (i) => (i.node as GraphNodeSummary).id);
  const omitted = items.omitted ?? (cut.length > 0 ? { reason: 'max_nodes' as const, part: 'impacted', count: cut.length, node_ids: cut.slice(0, 50) } : undefined);
  return fitAnswer<Success<'palimpsest_impact_analyze'>>(base, [
    { name: 'tests', items: testList, idOf: (t) => (t as { path: string }).path },
    { name: 'impacted', items: items.items, idOf: (i) => ((i as { node: GraphNodeSummary }).node.id), omitted },
  ], limits);
}

/** The first edge that reached each node (walk order is depth order). */
function onePerReached(edges: WalkedEdge[], direction: 'incoming' | 'outgoing'): WalkedEdge[] {
  const seen = new Set<string>();
  return edges.filter((e) => {
    const reached = direction === 'incoming' ? e.from : e.to;
    return !seen.has(reached) && seen.add(reached) !== undefined;
  });
}

/** Test files by the usual conventions: *.spec.* / *.test.*, test_*.py / *_test.py, tests/ and __tests__/ directories. */
export function isTestPath(path: string): boolean {
  return /(\.|_)(spec|test)\.[cm]?[jt]sx?$/.test(path) || /(^|\/)test_[^/]*\.py$/.test(path) || /_test\.py$/.test(path) || /(^|\/)(__tests__|tests?)\//.test(path);
}

function requestKey(input: GraphQueryInput): string {
  return JSON.stringify([input.from, input.mode, input.to ?? null, input.layers ?? null, input.edge_kinds ?? null, input.transitive ?? false]);
}

function cursorFor(snapshot: string, input: GraphQueryInput, offset: number): string {
  return Buffer.from(JSON.stringify({ s: snapshot, r: requestKey(input), o: offset })).toString('base64url');
}

/** The offset a cursor continues from; null when it belongs to another snapshot or request, or is not one. */
function cursorOffset(cursor: string | undefined, snapshot: string, input: GraphQueryInput): number | null {
  if (cursor === undefined) return 0;
  try {
    const c = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s?: unknown; r?: unknown; o?: unknown };
    return c.s === snapshot && c.r === requestKey(input) && Number.isInteger(c.o) && (c.o as number) >= 0 ? (c.o as number) : null;
  } catch {
    return null;
  }
}

function invalidCursor(): InvalidArgument {
  return {
    status: 'invalid_argument', code: 'invalid_cursor',
    failure_detail: 'The cursor is not a truncation.continuation of this request on this snapshot: repeat the request without it (and with snapshot set to the one the first page named).',
  };
}
