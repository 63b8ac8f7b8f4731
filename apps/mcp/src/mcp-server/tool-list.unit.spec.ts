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
