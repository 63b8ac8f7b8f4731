import { UUID_PATTERN } from '@palimpsest/protocol/catalog/fragments';
import type { JsonSchema } from '@palimpsest/protocol/catalog/operation-spec';

const NULL_NOTE = 'or null';

/**
 * The params schema as tools/list advertises it, said in fewer bytes (issue 13: ≤ 4 KiB a tool) with
 * the same meaning. Generic clients (the MCP Inspector's --tool-arg) convert a command-line value only
 * when a parameter's `type` is one string, so `["integer", "null"]` is advertised as `"integer"` with
 * the null case said in the description. The UUID pattern is `format: "uuid"`, and a nested schema
 * written more than once is written once under `$defs` (top-level parameters stay inline: generic
 * clients read their types). Admission still checks the catalog's own schema: every value accepted
 * before is accepted now, null included.
 */
export function advertisedSchema(schema: JsonSchema): JsonSchema {
  const top = transform(schema) as Record<string, unknown>;
  return hoistRepeats({ ...top, properties: openNested(top.properties) }) as JsonSchema;
}

/**
 * additionalProperties: false is kept on the tool's own parameters (a misspelt one is what a client most
 * needs to be told of) and left to admission inside them, where the catalog schema still refuses extras.
 */
function openNested(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openNested);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    out[key] = key === 'examples' || key === 'enum' || key === 'const' ? value : openNested(value);
  }
  return out;
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
 * most of them), `kind` an enum, the fields every kind needs required, and which more fields each
 * kind needs said in its description. The branches' exact rules stay in the catalog schema, which
 * admission checks.
 */
function flattenKinds(node: Record<string, unknown>, { key, branches }: Kinds): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const { branch } of branches) for (const [name, schema] of Object.entries(branch.properties)) if (name !== key && !(name in properties)) properties[name] = schema;
  const requiredBy = branches.map(({ branch }) => (branch.required ?? []).filter((r) => r !== key));
  const common = requiredBy[0]!.filter((field) => requiredBy.every((fields) => fields.includes(field)));
  // Kinds needing the same fields are said together: "edit, match: match, replace; span: replace".
  const byNeeds = new Map<string, string[]>();
  branches.forEach(({ kind }, i) => {
    const more = requiredBy[i]!.filter((f) => !common.includes(f)).join(', ') || 'nothing more';
    byNeeds.set(more, [...(byNeeds.get(more) ?? []), kind]);
  });
  const needs = [...byNeeds].map(([more, kinds]) => `${kinds.join(', ')}: ${more}`).join('; ');
  const { oneOf: _branches, ...rest } = node;
  return {
    ...rest,
    type: 'object',
    required: [key, ...common],
    properties: { [key]: { enum: branches.map((b) => b.kind), description: `Each kind also needs: ${needs}.` }, ...properties },
  };
}

function transform(input: unknown): unknown {
  if (Array.isArray(input)) return input.map(transform);
  if (input === null || typeof input !== 'object') return input;
  const branches = kindBranches(input as Record<string, unknown>);
  const node = branches ? flattenKinds(input as Record<string, unknown>, branches) : input;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === 'examples' || key === 'enum' || key === 'const' ? value : transform(value);
  // The seed's integers carry JavaScript's safe-integer range as bounds, which say nothing a JSON integer does not.
  if (out.minimum === -Number.MAX_SAFE_INTEGER) delete out.minimum;
  if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
  if (out.pattern === UUID_PATTERN) {
    delete out.pattern;
    out.format = 'uuid';
  }
  const types = out.type;
  if (Array.isArray(types) && types.length === 2 && types.includes('null')) {
    out.type = types.find((t) => t !== 'null');
    out.description = typeof out.description === 'string' ? `${out.description} (${NULL_NOTE})` : NULL_NOTE;
  }
  return out;
}

const bytes = (value: unknown): number => JSON.stringify(value).length;

/** Every schema standing in a nested `properties` map, by its JSON, with the property names it stands under. */
function nestedPropertySchemas(root: Record<string, unknown>): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const visit = (node: unknown, nested: boolean): void => {
    if (Array.isArray(node)) return node.forEach((item) => visit(item, true));
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'examples' || key === 'enum' || key === 'const') continue;
      if (key === 'properties' && value && typeof value === 'object') {
        for (const [name, schema] of Object.entries(value)) {
          if (nested && schema && typeof schema === 'object' && !('$ref' in schema)) found.set(JSON.stringify(schema), [...(found.get(JSON.stringify(schema)) ?? []), name]);
          visit(schema, true);
        }
      } else if (key !== '$defs') {
        visit(value, nested || node !== root);
      }
    }
  };
  visit(root, false);
  return found;
}

/** `node` with every schema written as `json` below it replaced by `ref` (the node itself stays). */
function replaceInside(node: unknown, json: string, ref: { $ref: string }): unknown {
  if (Array.isArray(node)) return node.map((item) => replaceAll(item, json, ref));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === 'examples' ? value : replaceAll(value, json, ref)]));
}

function replaceAll(node: unknown, json: string, ref: { $ref: string }): unknown {
  return node !== null && typeof node === 'object' && JSON.stringify(node) === json ? ref : replaceInside(node, json, ref);
}

/**
 * Moves the nested schema whose repeats cost the most bytes into `$defs`, named after its property,
 * again until no move saves bytes. The root's own properties are never moved.
 */
function hoistRepeats(root: Record<string, unknown>): Record<string, unknown> {
  let schema = root;
  for (;;) {
    const defs = (schema.$defs ?? {}) as Record<string, unknown>;
    let best: { json: string; name: string; saving: number } | undefined;
    for (const [json, names] of nestedPropertySchemas(schema)) {
      if (names.length < 2) continue;
      let name = names[0]!;
      for (let n = 2; name in defs; n++) name = `${names[0]}_${n}`;
      const ref = bytes({ $ref: `#/$defs/${name}` });
      const saving = names.length * (json.length - ref) - (json.length + name.length + 3) - (schema.$defs ? 0 : '"$defs":{},'.length);
      if (saving > 0 && saving > (best?.saving ?? 0)) best = { json, name, saving };
    }
    if (!best) return schema;
    const ref = { $ref: `#/$defs/${best.name}` };
    const { $defs: _old, properties = {}, ...rest } = schema;
    const topLevel = Object.entries(properties as Record<string, unknown>).map(([name, property]) => [name, replaceInside(property, best.json, ref)]);
    schema = {
      ...(replaceInside(rest, best.json, ref) as Record<string, unknown>),
      properties: Object.fromEntries(topLevel),
      $defs: { ...(replaceInside(defs, best.json, ref) as Record<string, unknown>), [best.name]: JSON.parse(best.json) },
    };
  }
}
