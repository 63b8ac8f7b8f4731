import type { CodeGraphView, CoverageGap, GraphEdge, GraphLayer, GraphNode } from '@palimpsest/core/structure/code-graph.port';
import type { Success } from '@palimpsest/protocol/catalog/operation-types';
import type { AppContext } from '../app-context';
import { coverageOf, fitAnswer, limitsOf } from './answer-budget';
import type { CaptureMode } from '../snapshots/capture-snapshot';
import { openState, snapshotOf, summaryOf, unknownNodes, isTestPath, type CommonInput } from './code-graph.handler';
import type { NamedState } from './project-states';

/**
 * palimpsest_context_build: a bounded slice of the code for a task. The purpose picks a fixed recipe;
 * each item says why it is included and whether it is required. Required items are never cut: when they
 * do not fit in max_bytes the answer is insufficient_context with the bytes they need and the refs to
 * pass in expand (which include an item as required). Optional items are cut from the end, counted.
 */

export type Purpose = 'understand' | 'change_behavior' | 'diagnose';

export interface ContextBuildInput extends CommonInput {
  focus: string[];
  purpose: Purpose;
  expand?: string[];
}

interface Item {
  node: ReturnType<typeof summaryOf>;
  depth: number;
  required: boolean;
  reasons: { kind: string; text: string; via?: string }[];
  signature: string;
  body?: string;
}

/** What each purpose adds around the focus: callers and callees, with bodies or signatures, required or not. */
const RECIPES: Record<Purpose, { callers: 'required' | 'optional'; calleeBodies: boolean; tests: boolean }> = {
  understand: { callers: 'optional', calleeBodies: false, tests: false },
  change_behavior: { callers: 'required', calleeBodies: false, tests: true },
  diagnose: { callers: 'optional', calleeBodies: true, tests: true },
};

const LAYERS: GraphLayer[] = ['declared', 'resolved'];
const REF_PREFIX = 'ctx1:';

export async function contextBuild(ctx: AppContext, input: ContextBuildInput, mode: CaptureMode) {
  const opened = await openState(ctx, input.snapshot, mode);
  if (!('view' in opened)) return opened;
  const { view, named } = opened;
  const expanded = (input.expand ?? []).map((ref) => (ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : ref));
  const missing = unknownNodes(view, [...input.focus, ...expanded]);
  if (missing) return missing;
  const recipe = RECIPES[input.purpose];
  const limits = limitsOf(input.limits);
  const gaps: CoverageGap[] = [...view.stateGaps()];
  const items = new Map<string, Item>();
  const edges: GraphEdge[] = [];
  const body = (n: GraphNode) => ctx.codeGraph.bodyOf(ctx.workspace, named, n).then((b) => b ?? undefined);
  const add = async (n: GraphNode, depth: number, required: boolean, reason: Item['reasons'][number], withBody: boolean) => {
    const known = items.get(n.id);
    if (known) {
      known.required ||= required;
      known.reasons.push(reason);
      return;
    }
    items.set(n.id, { node: summaryOf(n), depth, required, reasons: [reason], signature: n.signature, ...(withBody ? { body: await body(n) } : {}) });
  };
  for (const id of [...input.focus, ...expanded]) {
    const n = view.node(id)!;
    const why = input.focus.includes(id) ? { kind: 'focus', text: `${id}: focus of ${input.purpose}` } : { kind: 'expand', text: `${id}: asked for in expand` };
    await add(n, 0, true, why, true);
  }
  for (const id of input.focus) {
    const incoming = await view.step([id], 'incoming', LAYERS);
    const outgoing = await view.step([id], 'outgoing', LAYERS);
    gaps.push(...incoming.gaps, ...outgoing.gaps);
    edges.push(...incoming.edges, ...outgoing.edges);
    for (const e of outgoing.edges) {
      await add(view.node(e.to)!, 1, false, { kind: 'callee', text: `${e.to}: ${id} ${e.kind === 'calls' ? 'calls' : 'uses'} it`, via: id }, recipe.calleeBodies);
    }
    for (const e of incoming.edges) {
      const caller = view.node(e.from)!;
      const test = isTestPath(caller.path);
      if (test && !recipe.tests) continue;
      await add(caller, 1, recipe.callers === 'required' && !test, { kind: test ? 'test' : 'caller', text: `${e.from}: ${e.kind} ${id}`, via: id }, false);
    }
  }
  const ordered = [...items.values()].sort((a, b) => Number(b.required) - Number(a.required) || a.depth - b.depth);
  const required = ordered.filter((i) => i.required);
  const included = new Set(ordered.map((i) => i.node.id));
  const between = dedupe(edges.filter((e) => included.has(e.from) && included.has(e.to)));
  const base = { status: 'ok' as const, snapshot: snapshotOf(opened), coverage: coverageOf(gaps), purpose: input.purpose };
  const parts = [
    { name: 'items', items: required, idOf: (i: unknown) => (i as Item).node.id, pinned: true },
    { name: 'items', items: ordered.filter((i) => !i.required), idOf: (i: unknown) => (i as Item).node.id },
    { name: 'edges', items: between, idOf: (e: unknown) => (e as GraphEdge).from },
  ];
  const answer = fitAnswer<Success<'palimpsest_context_build'>>(base, parts, limits);
  if (answer.status === 'ok') return answer;
  // The smallest answer holding the required items, every optional one counted as omitted.
  const least = fitAnswer<Success<'palimpsest_context_build'>>(base, parts, { ...limits, max_bytes: 1 });
  return insufficient(named, required, least.status === 'ok' ? least.truncation.used.bytes : least.required_bytes, limits.max_bytes);
}

function dedupe(edges: GraphEdge[]): GraphEdge[] {
  const seen = new Set<string>();
  return edges.filter((e) => {
    const key = `${e.from}\0${e.to}\0${e.site.path}:${e.site.line}:${e.site.column}`;
    return !seen.has(key) && seen.add(key) !== undefined;
  });
}

/** Required context over max_bytes: never cut, so refused with what it needs. */
export interface InsufficientContext {
  status: 'invalid_argument';
  code: 'insufficient_context';
  failure_detail: string;
  argument: 'limits';
  required_bytes: number;
  required_items: number;
  expand: { ref: string; node: string; estimated_bytes: number; reason: string }[];
}

function insufficient(named: NamedState, required: Item[], bytes: number, maxBytes: number): InsufficientContext {
  return {
    status: 'invalid_argument',
    code: 'insufficient_context',
    failure_detail: `The required context is ${bytes} bytes, more than limits.max_bytes (${maxBytes}); it is never cut. Repeat with limits.max_bytes of at least ${bytes}, fewer focus nodes, or pass some of expand's refs with a smaller focus.`,
    argument: 'limits',
    required_bytes: bytes,
    required_items: required.length,
    expand: required.map((i) => ({
      ref: `${REF_PREFIX}${i.node.id}`,
      node: i.node.id,
      estimated_bytes: Buffer.byteLength(JSON.stringify(i)),
      reason: `the item ${i.node.id} (required context of ${named.id.slice(0, 15)}…); pass this ref in expand to include it as required`,
    })),
  };
}
