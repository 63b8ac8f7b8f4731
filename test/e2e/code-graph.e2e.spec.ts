import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeProject, TS_PROJECT } from '@palimpsest/structure/graph/test-support/graph-projects';
import { isolatedStore } from '../support/cli-process';
import { connectMcp, type McpSession } from '../support/mcp-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const GREET = 'function:src/lib.ts#greet';

/** The code graph over real stdio: one read-only `palimpsest mcp` on a workspace of a small TypeScript project. */
describe(`code graph over palimpsest mcp (read-only) on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let mcp: McpSession;
  let dir: string;

  beforeAll(async () => {
    dir = writeProject(TS_PROJECT);
    store = await isolatedStore();
    mcp = await connectMcp(store.env, ['--profile', 'read-only', '--workspace', dir]);
  });
  afterAll(async () => {
    await mcp?.close();
    await store?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers dependents on both layers with coverage and truncation, and the old snapshot after a change on disk', async () => {
    const first = (await mcp.call('palimpsest_graph_query', { from: [GREET], mode: 'dependents' })).result;
    expect(first.status).toBe('ok');
    expect(first.edges.map((e: { from: string }) => e.from)).toContain('function:src/app.ts#main');
    expect(first.coverage).toMatchObject({ completeness: 'partial', exhaustive: false });
    expect(first.truncation).toMatchObject({ truncated: false, continuation: null });
    const path = join(dir, 'src/app.ts');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, TS_PROJECT['src/app.ts'].split("greet('app')").join("'app'"));
    const now = (await mcp.call('palimpsest_graph_query', { from: [GREET], mode: 'dependents' })).result;
    expect(now.snapshot.id).not.toBe(first.snapshot.id);
    expect(now.edges.map((e: { from: string }) => e.from)).not.toContain('function:src/app.ts#main');
    const then = (await mcp.call('palimpsest_graph_query', { from: [GREET], mode: 'dependents', snapshot: first.snapshot.id })).result;
    expect(then.edges).toEqual(first.edges);
    const small = (await mcp.call('palimpsest_impact_analyze', { targets: [GREET], limits: { max_bytes: 1024 } })).result;
    expect(Buffer.byteLength(JSON.stringify(small))).toBeLessThanOrEqual(1024);
  });
});
