import type { JsonSchema } from '@palimpsest/protocol/catalog/operation-spec';

const NULL_NOTE = 'or null: not given';

/**
 * The params schema as tools/list advertises it. Generic clients (the MCP Inspector's --tool-arg) convert
 * a command-line value only when a parameter's `type` is one string, so `["integer", "null"]` is
 * advertised as `"integer"` with the null case said in the description. Admission still checks the
 * catalog's own schema: every value accepted before is accepted now, null included.
 */
export function advertisedSchema(schema: JsonSchema): JsonSchema {
  return transform(schema) as JsonSchema;
}

type Branch = { required?: string[]; properties: Record<string, { const?: unknown }> };

type Kinds = { key: string; branches: { kind: string; branch: Branch }[] };

/** The branches of a `oneOf` told apart by a constant `kind` or `op` (the operation kinds), or null. */
function kindBranches(node: Record<string, unknown>): Kinds | null {
  const branches = node.oneOf;
  if (!Array.isArray(branches) || branches.length < 2) return null;
  for (const key of ['kind', 'op']) {
    const kinds = branches.map((b) => (b as Branch | null)?.properties?.[key]?.const);
    if (kinds.every((k): k is string => typeof k === 'string')) return { key, branches: branches.map((b, i) => ({ kind: kinds[i]!, branch: b as Branch })) };
  }
  return null;
}

/**
 * One object for an operation whose kinds are a `oneOf`: each property written once (the kinds share
 * most of them), `kind` an enum, and which fields each kind needs said in its description. The
 * branches' exact rules stay in the catalog schema, which admission checks.
 */
function flattenKinds(node: Record<string, unknown>, { key, branches }: Kinds): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const { branch } of branches) for (const [name, schema] of Object.entries(branch.properties)) if (name !== key && !(name in properties)) properties[name] = schema;
  const needs = branches.map(({ kind, branch }) => `${kind}: ${(branch.required ?? []).filter((r) => r !== key).join(', ')}`).join('; ');
  const { oneOf: _branches, ...rest } = node;
  return {
    ...rest,
    type: 'object',
    required: [key],
    properties: { [key]: { enum: branches.map((b) => b.kind), description: `The operation; each needs (${needs}).` }, ...properties },
  };
}

function transform(input: unknown): unknown {
  if (Array.isArray(input)) return input.map(transform);
  if (input === null || typeof input !== 'object') return input;
  const branches = kindBranches(input as Record<string, unknown>);
  const node = branches ? flattenKinds(input as Record<string, unknown>, branches) : input;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === 'examples' || key === 'enum' || key === 'const' ? value : transform(value);
  const types = out.type;
  if (Array.isArray(types) && types.length === 2 && types.includes('null')) {
    out.type = types.find((t) => t !== 'null');
    out.description = typeof out.description === 'string' ? `${out.description} (${NULL_NOTE})` : NULL_NOTE;
  }
  return out;
}
