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

function transform(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(transform);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === 'examples' || key === 'enum' || key === 'const' ? value : transform(value);
  const types = out.type;
  if (Array.isArray(types) && types.length === 2 && types.includes('null')) {
    out.type = types.find((t) => t !== 'null');
    out.description = typeof out.description === 'string' ? `${out.description} (${NULL_NOTE})` : NULL_NOTE;
  }
  return out;
}
