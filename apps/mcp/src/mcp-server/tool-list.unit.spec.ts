import type { JsonSchema } from '@palimpsest/protocol/catalog/operation-spec';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import { UUID_PATTERN } from '@palimpsest/protocol/catalog/fragments';
import { advertisedSchema } from './advertised-schema';
import { listTools } from './tool-list';

/** Every `type` in a schema tree, with where it stands. */
function typesIn(node: unknown, at = '$'): [string, unknown][] {
  if (Array.isArray(node)) return node.flatMap((n, i) => typesIn(n, `${at}[${i}]`));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => (k === 'type' ? [[at, v] as [string, unknown]] : k === 'examples' ? [] : typesIn(v, `${at}.${k}`)));
}

describe('tools/list input schemas a generic client can fill in', () => {
  it('advertises every parameter with a single type (the MCP Inspector converts only those)', () => {
    const unions = listTools('full', 'detailed').flatMap((t) => typesIn(t.inputSchema, t.name).filter(([, type]) => Array.isArray(type)));
    expect(unions).toEqual([]);
  });

  it('says where null is accepted, and leaves the catalog (what admission checks) as it was', () => {
    const submit = CATALOG.find((op) => op.name === 'palimpsest_submit_edits')!;
    const advertised = advertisedSchema(submit.params) as { properties: Record<string, { type: unknown; description: string }> };
    expect(advertised.properties.expected_target_version).toMatchObject({ type: 'integer', description: expect.stringContaining('(or null)') });
    expect((submit.params.properties as Record<string, { type: unknown }>).expected_target_version.type).toEqual(['integer', 'null']);
  });
});

/**
 * tools/list's size as a client receives it: 48 KiB for the text and file tools, plus 8 KiB for the five
 * command tools (5.0 KiB measured), which every agent of the full profile needs beside its edits, plus
 * 8 KiB for history (changes, relocation, undo, diffs, a file's history, the workspace as of a point:
 * 7.6 KiB measured) and the auditor's reads (sessions and proofs: 3.4 KiB), plus 2 KiB for workspace
 * snapshots (open, status, a file of one: 1.8 KiB measured) and 7 KiB for the code graph's five reads
 * (node find and get, graph query, context, impact: 6.4 KiB measured).
 */
const SURFACE_BUDGET = 73 * 1024;
/** Every tool definition, as a client receives it (issue 13). */
const TOOL_CEILING = 4_096;

/** Every schema in a tree that sits in a `properties` or `$defs` map, with its path. */
function namedSchemas(node: unknown, at = '$'): [string, Record<string, unknown>][] {
  if (Array.isArray(node)) return node.flatMap((n, i) => namedSchemas(n, `${at}[${i}]`));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => {
    if (k === 'examples') return [];
    if ((k === 'properties' || k === '$defs') && v && typeof v === 'object') {
      return Object.entries(v).flatMap(([name, schema]) => [[`${at}.${name}`, schema] as [string, Record<string, unknown>], ...namedSchemas(schema, `${at}.${name}`)]);
    }
    return namedSchemas(v, `${at}.${k}`);
  });
}

describe('tools/list within its byte budget', () => {
  for (const mode of ['detailed', 'compact'] as const) {
    it(`stays under ${SURFACE_BUDGET} bytes in all and ${TOOL_CEILING} bytes a tool (${mode} responses), every parameter still described`, () => {
      const tools = listTools('full', mode);
      const sizes = Object.fromEntries(tools.map((t) => [t.name, Buffer.byteLength(JSON.stringify(t))]));
      const total = Buffer.byteLength(JSON.stringify({ tools }));
      process.stdout.write(`tools/list (${mode}): ${total} bytes; ${Object.entries(sizes).map(([n, b]) => `${n.replace('palimpsest_', '')} ${b}`).join(', ')}\n`);
      expect(total).toBeLessThanOrEqual(SURFACE_BUDGET);
      expect(Object.entries(sizes).filter(([, b]) => b > TOOL_CEILING)).toEqual([]);
      // At every depth: a parameter is described, or is a $ref to a described definition.
      const undescribed = tools.flatMap((t) =>
        namedSchemas(t.inputSchema, t.name)
          .filter(([, schema]) => typeof schema.description !== 'string' && typeof schema.$ref !== 'string')
          .map(([path]) => path),
      );
      expect(undescribed).toEqual([]);
    });
  }

  it('flattens operation kinds into one object whose kind says what each needs', () => {
    const propose = listTools('full', 'detailed').find((t) => t.name === 'palimpsest_change_propose')!;
    const items = (propose.inputSchema.properties as Record<string, { items: { required: string[]; properties: Record<string, { enum?: unknown; description?: string }>; oneOf?: unknown } }>).operations.items;
    expect(items.oneOf).toBeUndefined();
    expect(items.required).toEqual(['kind', 'target_file_id']);
    expect(items.properties.kind).toMatchObject({
      enum: ['edit', 'match', 'span', 'replace_all'],
      description: 'Each kind also needs: edit, match: match, replace; span: replace; replace_all: replacement.',
    });
  });

  it('writes a nested schema repeated within a tool once, under $defs, and never moves a top-level parameter there', () => {
    const tools = listTools('full', 'detailed');
    const preview = tools.find((t) => t.name === 'palimpsest_preview')!;
    const schema = preview.inputSchema as unknown as { properties: Record<string, any>; $defs: Record<string, unknown> };
    expect(schema.properties.edits.items.properties.occurrence_index).toEqual({ $ref: '#/$defs/occurrence_index' });
    expect(schema.properties.operations.items.properties.occurrence_index).toEqual({ $ref: '#/$defs/occurrence_index' });
    expect(schema.$defs.occurrence_index).toEqual({ type: 'integer', minimum: 1, description: expect.stringContaining('(or null)') });
    for (const tool of tools) {
      const { properties = {}, $defs = {} } = tool.inputSchema as { properties?: Record<string, { $ref?: string }>; $defs?: Record<string, unknown> };
      expect(Object.entries(properties).filter(([, p]) => p.$ref !== undefined)).toEqual([]);
      const refs = JSON.stringify(tool.inputSchema).match(/"\$ref":"#\/\$defs\/[^"]+"/g) ?? [];
      for (const ref of refs) expect(Object.keys($defs)).toContain(ref.slice('"$ref":"#/$defs/'.length, -1));
    }
  });

  it('keeps a top-level parameter inline even when it equals a nested schema that moved to $defs', () => {
    const note = { type: 'string', description: 'A note long enough that writing it once under $defs saves bytes.' };
    const item = { type: 'object', properties: { note } };
    const advertised = advertisedSchema({ type: 'object', properties: { note, a: { type: 'array', items: item }, b: { type: 'array', items: { ...item, required: [] } } } });
    const at = (...path: string[]) => path.reduce<unknown>((node, key) => (node as JsonSchema)[key], advertised);
    expect(at('properties', 'note')).toEqual(note);
    expect(at('properties', 'a', 'items', 'properties', 'note')).toEqual({ $ref: '#/$defs/note' });
    expect(at('properties', 'b', 'items', 'properties', 'note')).toEqual({ $ref: '#/$defs/note' });
    expect(advertised.$defs).toEqual({ note });
  });

  it('advertises schemas that accept every example, say UUIDs as format uuid, and outline each result by its required fields', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    for (const tool of listTools('full', 'detailed')) {
      const { examples = [] } = tool.inputSchema as { examples?: unknown[] };
      const validate = ajv.compile(tool.inputSchema);
      for (const example of examples) expect({ tool: tool.name, valid: validate(example), errors: validate.errors ?? null }).toEqual({ tool: tool.name, valid: true, errors: null });
      expect(JSON.stringify(tool.inputSchema)).not.toContain(UUID_PATTERN);
      const result = CATALOG.find((op) => op.name === tool.name)!.result as { required: string[] };
      expect(Object.keys((tool.outputSchema as { properties: object }).properties)).toEqual(result.required);
    }
    const propose = listTools('full', 'detailed').find((t) => t.name === 'palimpsest_change_propose')!;
    expect((propose.inputSchema.properties as Record<string, unknown>).candidate).toMatchObject({ type: 'string', format: 'uuid' });
  });
});
