import type { JsonSchema } from '../operation-spec';
import { defineOperation } from '../operation-spec';
import { statusResult } from '../fragments';

/**
 * The code graph: what the workspace's TypeScript, JavaScript and Python files declare and use. A declared
 * layer from the parsers (every language) and a resolved layer from the TypeScript language service (TS
 * and JS). Every answer says how far it proves anything (coverage) and what limits cut (truncation); none
 * writes, so the read-only profile serves them all.
 */

/** Request limits: defaults and maximums (truncation.limits shows what was applied; larger values are lowered). */
export const CODE_GRAPH_LIMITS = {
  max_bytes: { default: 65_536, maximum: 4_194_304 },
  max_depth: { default: 2, maximum: 16 },
  max_items: { default: 50, maximum: 200 },
  max_nodes: { default: 100, maximum: 1_000 },
} as const;

export const CODE_GRAPH_ERRORS = ['workspace_not_configured', 'not_found', 'snapshot_expired', 'snapshot_unknown', 'invalid_snapshot', 'snapshot_too_large', 'invalid_cursor', 'max_bytes_too_small', 'missing_to'];

const closed = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object', additionalProperties: false, required, properties,
});

const limit = (name: keyof typeof CODE_GRAPH_LIMITS, minimum = 1): JsonSchema => ({
  type: 'integer', minimum, description: `${CODE_GRAPH_LIMITS[name].default}; ≤ ${CODE_GRAPH_LIMITS[name].maximum}.`,
});

const common: Record<string, JsonSchema> = {
  snapshot: { type: 'string', maxLength: 256, description: 'latest (default) or an answer\'s snapshot.id.' },
  limits: {
    type: 'object',
    additionalProperties: false,
    properties: { max_bytes: limit('max_bytes', 256), max_depth: limit('max_depth'), max_items: limit('max_items'), max_nodes: limit('max_nodes') },
    description: 'Per answer (defaults; maximums).',
  },
};

const nodeIds = (max: number, description: string): JsonSchema => ({
  type: 'array', minItems: 1, maxItems: max, items: { type: 'string', maxLength: 1024 }, description,
});

const layers: JsonSchema = {
  type: 'array', items: { enum: ['declared', 'resolved'] }, minItems: 1, description: 'Default both.',
};

const answer = statusResult(['ok', 'not_found', 'invalid_argument']);

export const nodeFind = defineOperation({
  name: 'palimpsest_node_find',
  title: 'Find code nodes',
  description: 'Code declarations (TS/JS/Python) by name and kind, in path order, with versions.',
  readOnly: true,
  params: closed({
    query: { type: 'string', maxLength: 200, description: 'Substring of name or id (any case); empty: all.' },
    kind: { type: 'string', maxLength: 64, description: 'function, class, method, variable, interface, type, enum, module.' },
    path: { type: 'string', maxLength: 1024, description: 'Declared in this file.' },
    limit: { type: 'integer', minimum: 1, maximum: 50, description: 'Default 20.' },
    ...common,
  }, ['query']),
  admission: 'schema',
  result: answer,
  errors: CODE_GRAPH_ERRORS,
  // Examples need code in a workspace: the gateway's run on files written first (example-requests.ts: code_files).
  examples: [],
});

export const nodeGet = defineOperation({
  name: 'palimpsest_node_get',
  title: 'Get code nodes',
  description: 'Code nodes by id: signature, range, version (changes with the text: a guard).',
  readOnly: true,
  params: closed({
    nodes: nodeIds(50, 'Node ids (from node_find or an edge).'),
    include: { type: 'array', items: { enum: ['edges', 'body'] }, description: 'Also first-step edges; the text.' },
    ...common,
  }, ['nodes']),
  admission: 'schema',
  result: answer,
  errors: CODE_GRAPH_ERRORS,
  examples: [],
});

export const graphQuery = defineOperation({
  name: 'palimpsest_graph_query',
  title: 'Query the code graph',
  description: 'What code nodes use, or what uses them: edges with kind, layer (declared/resolved) and site; coverage says what is proven.',
  readOnly: true,
  params: closed({
    from: nodeIds(20, 'Start node ids.'),
    mode: { enum: ['dependencies', 'dependents', 'references', 'paths'], description: 'Outgoing; incoming nodes; incoming use sites; from → to.' },
    to: nodeIds(20, 'paths: end node ids.'),
    layers,
    edge_kinds: { type: 'array', items: { enum: ['calls', 'references', 'imports', 'extends'] }, description: 'Default all.' },
    transitive: { type: 'boolean', description: 'Up to limits.max_depth.' },
    cursor: { type: 'string', maxLength: 1024, description: 'truncation.continuation (with its snapshot).' },
    ...common,
  }, ['from', 'mode']),
  admission: 'schema',
  result: answer,
  errors: CODE_GRAPH_ERRORS,
  examples: [],
});

export const impactAnalyze = defineOperation({
  name: 'palimpsest_impact_analyze',
  title: 'Analyze impact',
  description: 'What depends on code nodes, transitively (limits.max_depth), with the test files that reach it.',
  readOnly: true,
  params: closed({
    targets: nodeIds(20, 'Node ids.'),
    direction: { enum: ['dependents', 'dependencies', 'both'], description: 'Default dependents.' },
    layers,
    ...common,
  }, ['targets']),
  admission: 'schema',
  result: answer,
  errors: CODE_GRAPH_ERRORS,
  examples: [],
});

export const contextBuild = defineOperation({
  name: 'palimpsest_context_build',
  title: 'Build code context',
  description: 'A bounded slice of code for a task: the focus with its text, callers, callees and tests by purpose. Required items are never cut (insufficient_context).',
  readOnly: true,
  params: closed({
    focus: nodeIds(20, 'Node ids the task is about.'),
    purpose: { enum: ['understand', 'change_behavior', 'diagnose'], description: 'The recipe.' },
    expand: { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 1100 }, description: 'Refs from insufficient_context: included as required.' },
    ...common,
  }, ['focus', 'purpose']),
  admission: 'schema',
  result: answer,
  errors: [...CODE_GRAPH_ERRORS, 'insufficient_context'],
  examples: [],
});

export const CODE_GRAPH_OPERATIONS = [nodeFind, nodeGet, graphQuery, contextBuild, impactAnalyze] as const;
