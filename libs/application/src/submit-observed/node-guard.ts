import type { NextAction } from '@palimpsest/core/errors/error-model';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import { isRecord } from '@palimpsest/core/shared/is-record';
import type { GraphNode } from '@palimpsest/core/structure/code-graph.port';
import type { NodeGuardLookup } from '@palimpsest/core/target/target.commands';
import { codePointToUnit } from '@palimpsest/core/text/code-points';
import { sha256Hex } from '@palimpsest/core/text/sha256';
import type { TargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { ObservationRow } from '@palimpsest/projections/observations.queries';
import { workspaceFileOf } from '@palimpsest/projections/workspace-files.queries';
import type { Sql } from '@palimpsest/store/db';
import type { AppContext } from '../app-context';
import type { SubmissionResult } from '../submit-proposal/submit-proposal.handler';
import { fileBytesOf } from '../workspace-publication/file-bytes';

/**
 * Under the row lock: the code node of an observed scope, as the code graph would name it in the file the
 * target is bound to once it holds the locked text (its bytes as published: the file's line endings), so
 * its version is the one palimpsest_node_get answers for that content. The core compares it with the
 * version the caller read (checkNodeGuard).
 */
export async function lookupNodeGuard(ctx: AppContext, tx: Sql, target: TargetRow, row: ObservationRow, expected: unknown): Promise<NodeGuardLookup> {
  const unbound: NodeGuardLookup = { expected_node_version: expected, path: null, node_id: null, current_node_version: null };
  const binding = await workspaceFileOf(tx, target.target_id);
  if (!binding) return unbound;
  const { bytes } = fileBytesOf(target.content, target.source_line_endings, binding.source_line_ending_style);
  const nodes = await ctx.codeGraph.engine.nodesOf(binding.path, sha256Hex(bytes), bytes.toString('utf8'));
  const node = observedNode(nodes, row, lineOf(target.content, row.scope_start));
  return { expected_node_version: expected, path: binding.path, node_id: node?.id ?? null, current_node_version: node?.version ?? null };
}

/** 1-based line of a code-point offset of LF text (the published bytes have the same lines). */
function lineOf(text: string, codePoint: number): number {
  const unit = codePointToUnit(text, codePoint);
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < unit; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * The graph node the observed symbol is: its name, declared on the scope's first line; else the one node
 * of that name and kind. The outline and the graph parse the same text with the same grammars, but a
 * value's kind may differ between them (an arrow function bound to a const), so the line decides first.
 */
function observedNode(nodes: readonly GraphNode[], row: ObservationRow, line: number): GraphNode | null {
  const named = nodes.filter((n) => n.kind !== 'module' && n.name === row.symbol_name);
  const onLine = named.filter((n) => n.range.start.line === line);
  if (onLine.length === 1) return onLine[0];
  const ofKind = (onLine.length > 1 ? onLine : named).filter((n) => n.kind === row.symbol_kind);
  return ofKind.length === 1 ? ofKind[0] : null;
}

/** A recorded node_version_mismatch whose node can be read again (not an unbound target). */
export function isNodeMismatch(result: SubmissionResult): boolean {
  return result.status === 'rejected' && isRecord(result.diagnostic) && result.diagnostic.code === 'node_version_mismatch' && typeof result.diagnostic.path === 'string';
}

/**
 * The next step after a node guard refused: read the node again (its new version and text), then resend
 * with that version; the observation was not consumed and still describes the locked text. A node no
 * longer declared at the scope is found again by its name in its file.
 */
export function nodeGuardActions(result: SubmissionResult, row: ObservationRow | null): SubmissionResult {
  const diagnostic = 'diagnostic' in result ? result.diagnostic : null;
  const d = isRecord(diagnostic) ? diagnostic : {};
  const nodeId = typeof d.node_id === 'string' ? d.node_id : null;
  const action: NextAction =
    nodeId !== null
      ? { operation: OP.palimpsest_node_get, reason: 'The node changed since its version was read: read it again, then resend with its new version.', params: { nodes: [nodeId], include: ['body'] } }
      : { operation: OP.palimpsest_node_find, reason: 'No node is declared at the observed scope any more: find it again by name in its file.', params: { query: row?.symbol_name ?? '', path: String(d.path) } };
  return { ...result, next_actions: [action] } as SubmissionResult;
}
