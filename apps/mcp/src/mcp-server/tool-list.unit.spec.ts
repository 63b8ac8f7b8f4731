import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
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
    expect(advertised.properties.expected_target_version).toMatchObject({ type: 'integer', description: expect.stringContaining('or null: not given') });
    expect((submit.params.properties as Record<string, { type: unknown }>).expected_target_version.type).toEqual(['integer', 'null']);
  });
});

/** tools/list's size as a client receives it (issue 13: the surface grows by about ten tools). */
const SURFACE_BUDGET = 48 * 1024;
/** Where the largest tools stand today; the aim is 4 KiB each (issue 13), so this only ever goes down. */
const TOOL_CEILING = 5_500;

describe('tools/list within its byte budget', () => {
  it(`stays under ${SURFACE_BUDGET} bytes in all and ${TOOL_CEILING} bytes a tool, every parameter still described`, () => {
    const tools = listTools('full', 'detailed');
    const sizes = Object.fromEntries(tools.map((t) => [t.name, Buffer.byteLength(JSON.stringify(t))]));
    const total = Buffer.byteLength(JSON.stringify({ tools }));
    process.stdout.write(`tools/list: ${total} bytes; ${Object.entries(sizes).map(([n, b]) => `${n.replace('palimpsest_', '')} ${b}`).join(', ')}\n`);
    expect(total).toBeLessThanOrEqual(SURFACE_BUDGET);
    expect(Object.entries(sizes).filter(([, b]) => b > TOOL_CEILING)).toEqual([]);
    const undescribed = tools.flatMap((t) =>
      Object.entries((t.inputSchema.properties ?? {}) as Record<string, { description?: unknown }>).filter(([, s]) => typeof s.description !== 'string').map(([n]) => `${t.name}.${n}`),
    );
    expect(undescribed).toEqual([]);
  });

  it('flattens operation kinds into one object whose kind says what each needs', () => {
    const propose = listTools('full', 'detailed').find((t) => t.name === 'palimpsest_change_propose')!;
    const items = (propose.inputSchema.properties as Record<string, { items: { properties: Record<string, { enum?: unknown; description?: string }>; oneOf?: unknown } }>).operations.items;
    expect(items.oneOf).toBeUndefined();
    expect(items.properties.kind).toMatchObject({ enum: ['edit', 'match', 'span', 'replace_all'], description: expect.stringContaining('replace_all: target_file_id, replacement') });
  });
});
