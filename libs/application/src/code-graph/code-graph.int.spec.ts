import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { dispatch, dispatchRequest } from '../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';
import { grepSites, PY_PROJECT, TS_PROJECT } from '@palimpsest/structure/graph/test-support/graph-projects';

const GREET = 'function:src/lib.ts#greet';
const MAIN = 'function:src/app.ts#main';
type Answer = Record<string, any>;

describe('code graph operations', () => {
  let h: WorkspaceHarness;

  beforeAll(async () => {
    h = await createWorkspaceHarness('code-graph-');
    for (const [path, text] of Object.entries({ ...TS_PROJECT, ...PY_PROJECT })) {
      mkdirSync(dirname(join(h.dir, path)), { recursive: true });
      writeFileSync(join(h.dir, path), text);
    }
  });
  afterAll(() => h.dispose());

  const call = async (name: string, params: Record<string, unknown>, readOnly = true) =>
    (await dispatchRequest(h.ctx, name, params, { readOnly })) as Answer;

  it('finds a declaration by name and kind, in the read-only profile', async () => {
    const found = await call('palimpsest_node_find', { query: 'greet', kind: 'function' });
    expect(found.status).toBe('ok');
    expect(found.nodes.map((n: Answer) => n.id)).toEqual(['function:pkg/lib.py#greet', GREET]);
    expect(found.coverage).toEqual({ completeness: 'complete', exhaustive: true, gaps: [] });
    expect(found.truncation).toEqual(expect.objectContaining({ truncated: false, omissions: [], continuation: null }));
    expect(found.snapshot.id).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('answers dependents with partial coverage and the dynamic call as a gap; impact names the test that reaches them', async () => {
    const q = await call('palimpsest_graph_query', { from: [GREET], mode: 'references', layers: ['declared'] });
    const sites = q.edges.map((e: Answer) => `${e.site.path}:${e.site.line}:${e.site.column}`).sort();
    const tsOnly = Object.fromEntries(Object.entries(TS_PROJECT));
    expect(sites).toEqual(grepSites(tsOnly, ['greet', 'hi']).filter((s) => s !== 'src/lib.ts:1:17' && s !== 'src/alias.ts:1:19'));
    expect(q.coverage.completeness).toBe('partial');
    expect(q.coverage.gaps).toEqual([expect.objectContaining({ reason: 'dynamic_call', site: { path: 'src/dynamic.ts', line: 4, column: 10 } })]);
    const impact = await call('palimpsest_impact_analyze', { targets: [GREET], limits: { max_depth: 3 } });
    expect(impact.impacted).toEqual(expect.arrayContaining([expect.objectContaining({ node: expect.objectContaining({ id: MAIN }), depth: 1, from: GREET, edge_kind: 'calls' })]));
    expect(impact.tests).toEqual([{ path: 'src/app.spec.ts', reaches: expect.arrayContaining([MAIN]) }]);
  });

  it('follows dependents transitively to max_depth, and dependencies outward', async () => {
    const deep = await call('palimpsest_graph_query', { from: [GREET], mode: 'dependents', transitive: true, limits: { max_depth: 2 } });
    expect(deep.edges).toEqual(expect.arrayContaining([expect.objectContaining({ from: 'module:src/app.spec.ts', to: MAIN, depth: 2 })]));
    expect(Math.max(...deep.edges.map((e: Answer) => e.depth))).toBe(2);
    const path = await call('palimpsest_graph_query', { from: ['module:src/app.spec.ts'], to: [GREET], mode: 'paths' });
    expect(path.paths).toEqual([{ from: 'module:src/app.spec.ts', to: GREET, nodes: ['module:src/app.spec.ts', MAIN, GREET] }]);
    expect(path.edges.map((e: Answer) => [e.from, e.to])).toEqual([['module:src/app.spec.ts', MAIN], [MAIN, GREET]]);
    expect(await call('palimpsest_graph_query', { from: [GREET], mode: 'paths' })).toEqual(expect.objectContaining({ status: 'invalid_argument', code: 'missing_to' }));
    const out = await call('palimpsest_impact_analyze', { targets: ['function:src/lib.ts#shout'], direction: 'dependencies' });
    expect(out.impacted).toEqual([expect.objectContaining({ node: expect.objectContaining({ id: GREET }), depth: 1, edge_kind: 'calls' })]);
  });

  it('gives a node its signature and a version that changes with its text', async () => {
    const got = await call('palimpsest_node_get', { nodes: [GREET], include: ['body'] });
    expect(got.nodes[0]).toEqual(expect.objectContaining({ signature: 'function greet(name: string): string', body: expect.stringContaining('return `hello ${name}`') }));
    expect(got.nodes[0].node.version).toMatch(/^[0-9a-f]{64}$/);
    const missing = await call('palimpsest_node_get', { nodes: ['function:src/lib.ts#nope'] });
    expect(missing).toEqual(expect.objectContaining({ status: 'not_found', code: 'not_found' }));
  });

  it('keeps every answer within max_bytes, counting what it left out, and pages with the continuation', async () => {
    const full = await call('palimpsest_graph_query', { from: [GREET], mode: 'references' });
    const tiny = await call('palimpsest_graph_query', { from: [GREET], mode: 'references', limits: { max_bytes: 300 } });
    expect(tiny).toEqual(expect.objectContaining({ status: 'invalid_argument', code: 'max_bytes_too_small', required_bytes: expect.any(Number) }));
    expect(tiny.required_bytes).toBeGreaterThan(300);
    for (const max of [tiny.required_bytes, tiny.required_bytes + 400, tiny.required_bytes + 1200]) {
      const cut = await call('palimpsest_graph_query', { from: [GREET], mode: 'references', limits: { max_bytes: max } });
      expect(Buffer.byteLength(JSON.stringify(cut))).toBeLessThanOrEqual(max);
      expect(cut.truncation.used.bytes).toBe(Buffer.byteLength(JSON.stringify(cut)));
      const left = cut.truncation.omissions.filter((o: Answer) => o.part === 'edges').reduce((n: number, o: Answer) => n + o.count, 0);
      expect(cut.edges.length + left).toBe(full.edges.length);
    }
    const pages: Answer[] = [];
    let page = await call('palimpsest_graph_query', { from: [GREET], mode: 'references', limits: { max_items: 3 } });
    pages.push(...page.edges);
    while (page.truncation.continuation) {
      page = await call('palimpsest_graph_query', { from: [GREET], mode: 'references', limits: { max_items: 3 }, snapshot: page.snapshot.id, cursor: page.truncation.continuation });
      pages.push(...page.edges);
    }
    expect(pages).toEqual(full.edges);
    const bad = await call('palimpsest_graph_query', { from: [GREET], mode: 'references', cursor: 'nope' });
    expect(bad).toEqual(expect.objectContaining({ status: 'invalid_argument', code: 'invalid_cursor' }));
  });

  it('builds the context for a change: the focus with its text and its callers are required, never cut', async () => {
    const built = await call('palimpsest_context_build', { focus: [GREET], purpose: 'change_behavior' });
    expect(built.status).toBe('ok');
    expect(built.items[0]).toEqual(expect.objectContaining({ node: expect.objectContaining({ id: GREET }), required: true, depth: 0, body: expect.stringContaining('hello') }));
    const callers = built.items.filter((i: Answer) => i.reasons.some((r: Answer) => r.kind === 'caller')).map((i: Answer) => i.node.id);
    expect(callers).toEqual(expect.arrayContaining([MAIN, 'function:src/lib.ts#shout', 'method:src/alias.ts#Greeter.run']));
    expect(built.items.filter((i: Answer) => callers.includes(i.node.id)).every((i: Answer) => i.required)).toBe(true);
    const small = await call('palimpsest_context_build', { focus: [GREET], purpose: 'change_behavior', limits: { max_bytes: 512 } });
    expect(small).toEqual(expect.objectContaining({ status: 'invalid_argument', code: 'insufficient_context', required_items: built.items.filter((i: Answer) => i.required).length }));
    expect(small.expand.map((e: Answer) => e.node)).toContain(GREET);
    const enough = await call('palimpsest_context_build', { focus: [GREET], purpose: 'change_behavior', limits: { max_bytes: small.required_bytes } });
    expect(enough.status).toBe('ok');
    expect(Buffer.byteLength(JSON.stringify(enough))).toBeLessThanOrEqual(small.required_bytes);
    const viaRef = await call('palimpsest_context_build', { focus: [MAIN], purpose: 'understand', expand: [small.expand.find((e: Answer) => e.node === GREET).ref] });
    expect(viaRef.items.find((i: Answer) => i.node.id === GREET)).toEqual(expect.objectContaining({ required: true }));
  });

  it('after an accepted edit renames a call site, latest answers anew and the earlier snapshot as before', async () => {
    const before = await call('palimpsest_graph_query', { from: [GREET], mode: 'dependents' });
    expect(before.edges.map((e: Answer) => e.from)).toContain(MAIN);
    const edit = await dispatch(h.ctx, 'edit_file', { path: 'src/app.ts', oldString: "import { greet } from './lib';", newString: "import { greet, shout } from './lib';" });
    expect(edit.status).toBe('ok');
    const rename = await dispatch(h.ctx, 'edit_file', { path: 'src/app.ts', oldString: "return greet('app');", newString: "return shout('app');" });
    expect(rename.status).toBe('ok');
    const after = await call('palimpsest_graph_query', { from: [GREET], mode: 'dependents' });
    expect(after.snapshot.id).not.toBe(before.snapshot.id);
    expect(after.edges.map((e: Answer) => e.from)).not.toContain(MAIN);
    const old = await call('palimpsest_graph_query', { from: [GREET], mode: 'dependents', snapshot: before.snapshot.id });
    expect(old.edges).toEqual(before.edges);
    const uses = await call('palimpsest_graph_query', { from: [MAIN], mode: 'dependencies' });
    expect(uses.edges.map((e: Answer) => e.to)).toEqual(['function:src/lib.ts#shout']);
  });
});
