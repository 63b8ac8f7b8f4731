import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import { servedReadOnly } from '@palimpsest/protocol/catalog/operation-spec';
import { GATEWAY_ROUTES, OPERATION_ROUTES, SCOPES, guardArgumentOf, keyArgumentOf, pathArgumentOf, specOf } from './route-table';

describe('the route table', () => {
  it('maps every catalog operation to exactly one route', () => {
    expect(OPERATION_ROUTES.map((r) => r.operation).sort()).toEqual(CATALOG.map((op) => op.name).sort());
  });

  it('binds no method and path twice, across operation and gateway routes', () => {
    const keys = [...OPERATION_ROUTES, ...GATEWAY_ROUTES].map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('gives every route a scope or public, and writes never the read scope (unless the read-only profile serves part of them)', () => {
    for (const r of OPERATION_ROUTES) {
      expect(SCOPES).toContain(r.scope);
      if (!servedReadOnly(specOf(r.operation))) expect({ op: r.operation, scope: r.scope }).not.toEqual({ op: r.operation, scope: 'read' });
    }
    for (const r of GATEWAY_ROUTES) expect([...SCOPES, 'public']).toContain(r.access);
  });

  it('derives the path, guard and key arguments from the catalog schemas', () => {
    for (const r of OPERATION_ROUTES) {
      const names = Object.keys(specOf(r.operation).params.properties as object);
      const inPath = pathArgumentOf(r);
      if (inPath) expect(names).toContain(inPath);
    }
    expect(guardArgumentOf(specOf('palimpsest_submit_edits'))).toBe('expected_target_version');
    expect(guardArgumentOf(specOf('palimpsest_change_apply'))).toBe('expected_candidate_version');
    expect(keyArgumentOf(specOf('palimpsest_change_apply'))).toBe('request_id');
    expect(keyArgumentOf(specOf('palimpsest_save'))).toBeNull();
  });
});
