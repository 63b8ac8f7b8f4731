import type { CodeGraphView, CoverageGap, GraphBoundary, GraphDirection, GraphEdge, GraphLayer } from '@palimpsest/core/structure/code-graph.port';

export type WalkedEdge = GraphEdge;

export interface Walked {
  edges: WalkedEdge[];
  boundaries: GraphBoundary[];
  gaps: CoverageGap[];
  /** Nodes reached but not followed: max_nodes were already visited. */
  cutAtNodes: string[];
}

/**
 * Breadth first from the start nodes, one step per depth, up to maxDepth steps and maxNodes nodes visited.
 * Edges carry the depth they were found at; a node is followed once, from the first edge that reached it.
 */
export async function walk(
  view: CodeGraphView,
  from: readonly string[],
  direction: GraphDirection,
  layers: readonly GraphLayer[],
  kinds: readonly GraphEdge['kind'][] | undefined,
  maxDepth: number,
  maxNodes: number,
): Promise<Walked> {
  const out: Walked = { edges: [], boundaries: [], gaps: [], cutAtNodes: [] };
  const visited = new Set(from);
  let frontier = [...from];
  for (let depth = 1; frontier.length > 0 && depth <= maxDepth; depth++) {
    const step = await view.step(frontier, direction, layers);
    out.gaps.push(...step.gaps);
    out.boundaries.push(...step.boundaries);
    const next: string[] = [];
    for (const edge of step.edges) {
      if (kinds && !kinds.includes(edge.kind)) continue;
      out.edges.push({ ...edge, depth });
      const other = direction === 'incoming' ? edge.from : edge.to;
      if (visited.has(other)) continue;
      if (visited.size >= maxNodes) {
        if (!out.cutAtNodes.includes(other)) out.cutAtNodes.push(other);
        continue;
      }
      visited.add(other);
      next.push(other);
    }
    frontier = next;
  }
  return out;
}
