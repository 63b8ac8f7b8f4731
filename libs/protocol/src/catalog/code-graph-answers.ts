import type { OperationName } from './catalog';
import type { JsonSchema } from './operation-spec';
import { array, bool, int, nullable, object, str } from './answer-schema-parts';
import { diskState } from './snapshot-answers';

/** The answers of the code graph operations (beside answer-schemas.ts). */

const site = object({ path: str(), line: int('1-based.'), column: int('1-based, in Unicode scalar values.') });

const nodeSummary = object({
  id: str('Names the node within its snapshot; do not parse it.'),
  kind: { enum: ['module', 'function', 'class', 'method', 'variable', 'interface', 'type', 'enum'] },
  name: str(),
  path: str(),
  version: str('SHA-256 of kind, name, path and the declaration\'s text: a guard for a later edit.'),
});

const edge = object({
  from: str(), kind: { enum: ['calls', 'references', 'imports', 'extends'] }, to: str(),
  layer: { enum: ['declared', 'resolved'] }, depth: int(), site,
});

const coverage = object({
  completeness: { enum: ['complete', 'partial', 'unknown'] },
  exhaustive: bool('True only when an empty answer proves absence.'),
  gaps: array(object({
    reason: { enum: ['dynamic_call', 'unresolved_import', 'declared_only_language', 'parse_error'] },
    site: nullable(site),
    detail: str(),
  })),
});

const truncation = object({
  truncated: bool(),
  limits: object({ max_bytes: int(), max_depth: int(), max_items: int(), max_nodes: int() }),
  used: object({ bytes: int('UTF-8 bytes of the compact JSON of the whole answer.') }),
  omissions: array(object({
    reason: { enum: ['max_bytes', 'max_items', 'max_nodes', 'max_depth', 'limit'] },
    part: str('The list that was cut.'),
    count: int(),
    node_ids: array(str(), 'Up to 50 of the omitted nodes.'),
  })),
  continuation: nullable(str('Pass as cursor for the next page (graph_query).')),
});

const snapshot = object({
  id: str('The workspace snapshot handle (palimpsest_open_snapshot, palimpsest_snapshot_status) of the files answered from.'),
  log_sequence: int('The log position of its capture: an as_of read at it reads the same files.'),
  files: int('Code files indexed.'),
  disk: { ...diskState, description: 'Reads of a handle: how the disk differs from the snapshot now.' },
}, ['disk']);

const envelope = (fields: Record<string, JsonSchema>, optional: string[] = []) => object({ status: { const: 'ok' }, snapshot, coverage, truncation, ...fields }, optional);

const traversed = object({ direction: { enum: ['outgoing', 'incoming'] }, edge_kinds: array(str()), layers: array(str()) });

const boundary = object({ kind: { enum: ['external_module', 'unresolved_name'] }, from: str(), name: str(), module: nullable(str()), site });

type CodeGraphOperation = 'palimpsest_node_find' | 'palimpsest_node_get' | 'palimpsest_graph_query' | 'palimpsest_context_build' | 'palimpsest_impact_analyze';

export const CODE_GRAPH_ANSWERS: { [N in CodeGraphOperation & OperationName]: JsonSchema } = {
  palimpsest_node_find: envelope({
    nodes: array(nodeSummary),
    matches: array(object({ node: str(), reasons: array({ enum: ['name', 'id'] }) })),
  }),
  palimpsest_node_get: envelope({
    nodes: array(object({
      node: nodeSummary,
      qualified_name: str(), language: str(), layers: array(str()),
      range: object({ start: site, end: site }),
      signature: str('The declaration up to its body.'),
      body: str('With include body.'),
      edges: array(object({ direction: { enum: ['incoming', 'outgoing'] }, kind: str(), layer: str(), node: str(), site })),
    }, ['body', 'edges'])),
  }),
  palimpsest_graph_query: envelope({
    traversed,
    nodes: array(nodeSummary),
    edges: array(edge),
    paths: array(object({ from: str(), to: str(), nodes: array(str(), 'The node ids from `from` to `to`, in order.') }), 'mode paths: the shortest path found from each start to each end (within max_depth).'),
    boundaries: array(boundary),
  }, ['paths']),
  palimpsest_context_build: envelope({
    purpose: { enum: ['understand', 'change_behavior', 'diagnose'] },
    items: array(object({
      node: nodeSummary,
      depth: int('0 for the focus.'),
      required: bool('Required items are never cut.'),
      reasons: array(object({ kind: { enum: ['focus', 'expand', 'caller', 'callee', 'test'] }, text: str(), via: str() }, ['via'])),
      signature: str(),
      body: str('The declaration\'s text (focus; callees when diagnosing).'),
    }, ['body'])),
    edges: array(edge),
  }),
  palimpsest_impact_analyze: envelope({
    impacted: array(object({ node: nodeSummary, depth: int(), from: str(), edge_kind: str(), layer: str(), site })),
    tests: array(object({ path: str(), reaches: array(str(), 'Impacted node ids this test file uses.') })),
  }),
};
