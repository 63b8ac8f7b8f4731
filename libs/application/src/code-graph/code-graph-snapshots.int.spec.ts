import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { TS_PROJECT } from '@palimpsest/structure/graph/test-support/graph-projects';
import type { AppContext } from '../app-context';
import { dispatchRequest } from '../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';

const GREET = 'function:src/lib.ts#greet';
const MAIN = 'function:src/app.ts#main';
type Answer = Record<string, any>;

describe(`code graph answers name the workspace snapshot they answer from, on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(h.dir, path)), { recursive: true });
    writeFileSync(join(h.dir, path), text);
  };
  const on = (ctx: AppContext) => async (name: string, params: Record<string, unknown> = {}, readOnly = false) => (await dispatchRequest(ctx, name, params, { readOnly })) as Answer;
  let call: ReturnType<typeof on>;
  const callersOf = (q: Answer) => q.edges.map((e: Answer) => e.from).sort();

  beforeAll(async () => {
    h = await createWorkspaceHarness('code-graph-snapshots-');
    for (const [path, text] of Object.entries(TS_PROJECT)) put(path, text);
    put('src/extra.ts', "import { greet } from './lib';\nexport const extra = greet('extra');\n");
    put('README.md', '# not code, but part of the snapshot\n');
    call = on(h.ctx);
  });
  afterAll(() => h.dispose());

  let first: Answer;
  let edited: Answer;

  const events = async () => Number((await h.testDb.db.query<{ n: string }>('SELECT count(*)::text AS n FROM events')).rows[0]!.n);

  it('answers latest in the read-only profile from a capture it holds and does not record', async () => {
    const status = await call('palimpsest_snapshot_status');
    const before = await events();
    const held = await call('palimpsest_graph_query', { from: [GREET], mode: 'dependents' }, true);
    expect(held.snapshot).toEqual({ id: status.latest, log_sequence: expect.any(Number), files: Object.keys(TS_PROJECT).length + 1 });
    expect(callersOf(held)).toContain(MAIN);
    expect(await call('palimpsest_node_find', { query: 'greet', kind: 'function', snapshot: held.snapshot.id }, true)).toMatchObject({ status: 'ok', snapshot: held.snapshot });
    expect(await call('palimpsest_open_snapshot', {}, true)).toMatchObject({ recorded: false, held: true, snapshot: { id: held.snapshot.id, log_sequence: held.snapshot.log_sequence } });
    expect(await events()).toBe(before);
    expect(await call('palimpsest_snapshot_status')).toMatchObject({ state: 'no_snapshot', latest_recorded: false });
  });

  it('answers latest as the handle workspace/status names, recorded at the position workspace/open reopens', async () => {
    const status = await call('palimpsest_snapshot_status');
    expect(status).toMatchObject({ state: 'no_snapshot', latest_recorded: false });
    first = await call('palimpsest_graph_query', { from: [GREET], mode: 'dependents' });
    expect(first.status).toBe('ok');
    expect(first.snapshot).toEqual({ id: status.latest, log_sequence: expect.any(Number), files: Object.keys(TS_PROJECT).length + 1 });
    expect(callersOf(first)).toContain(MAIN);
    const after = await call('palimpsest_snapshot_status');
    expect(after).toMatchObject({ state: 'unchanged', latest: first.snapshot.id, latest_recorded: true, snapshots: [{ id: first.snapshot.id, log_sequence: first.snapshot.log_sequence }] });
    const opened = await call('palimpsest_open_snapshot');
    expect(opened).toMatchObject({ recorded: false, snapshot: { id: first.snapshot.id, log_sequence: first.snapshot.log_sequence } });
    const found = await call('palimpsest_node_find', { query: 'greet', kind: 'function' }, true);
    expect(found.snapshot).toEqual(first.snapshot);
  });

  it('after an accepted edit: a new handle, and the graph, a snapshot read and an as_of read at its position agree', async () => {
    expect(await call('edit_file', { path: 'src/app.ts', oldString: "import { greet } from './lib';", newString: "import { greet, shout } from './lib';" })).toMatchObject({ status: 'ok' });
    expect(await call('edit_file', { path: 'src/app.ts', oldString: "return greet('app');", newString: "return shout('app');" })).toMatchObject({ status: 'ok' });
    edited = await call('palimpsest_graph_query', { from: [GREET], mode: 'dependents' });
    expect(edited.snapshot.id).not.toBe(first.snapshot.id);
    expect(edited.snapshot.log_sequence).toBeGreaterThan(first.snapshot.log_sequence);
    expect((await call('palimpsest_snapshot_status')).latest).toBe(edited.snapshot.id);
    expect(callersOf(edited)).not.toContain(MAIN);
    const main = await call('palimpsest_node_get', { nodes: [MAIN], include: ['body'], snapshot: edited.snapshot.id }, true);
    const inSnapshot = await call('palimpsest_read_snapshot_file', { snapshot: edited.snapshot.id, path: 'src/app.ts' });
    const asOf = await call('read_file', { path: 'src/app.ts', as_of: { position: edited.snapshot.log_sequence } });
    expect(inSnapshot.content).toBe(asOf.content);
    expect(inSnapshot.content).toContain(main.nodes[0].body);
    expect(main.nodes[0].body).toContain("shout('app')");
    expect(main.snapshot).toEqual({ ...edited.snapshot, disk: { state: 'unchanged', changed_paths: [], changed_total: 0, latest: edited.snapshot.id } });
  });

  it('a process that never indexed them answers earlier snapshots from the log; one whose bytes are gone is snapshot_expired', async () => {
    expect(await call('edit_file', { path: 'src/app.ts', oldString: "return shout('app');", newString: "return greet('again');" })).toMatchObject({ status: 'ok' });
    const cold = on(appContext(h.testDb.db, { workspace: h.root }));
    // src/app.ts as it was at `edited` is only in the log now (its target's version then).
    const then = await cold('palimpsest_graph_query', { from: [GREET], mode: 'dependents', snapshot: edited.snapshot.id }, true);
    const { disk, ...snapshot } = then.snapshot;
    expect({ ...then, snapshot, truncation: { ...then.truncation, used: edited.truncation.used } }).toEqual(edited);
    // A read of a handle says how the disk differs from it now (as a snapshot read does).
    expect(disk).toEqual({ state: 'changed', changed_paths: [{ path: 'src/app.ts', change: 'modified' }], changed_total: 1, latest: (await cold('palimpsest_snapshot_status')).latest });
    // no edit through Palimpsest ever wrote src/extra.ts: once it changes on disk, what held it is gone (for a process that had not read it).
    put('src/extra.ts', "export const extra = 'changed outside';\n");
    expect(await on(appContext(h.testDb.db, { workspace: h.root }))('palimpsest_graph_query', { from: [GREET], mode: 'dependents', snapshot: first.snapshot.id }, true)).toMatchObject({ status: 'not_found', code: 'snapshot_expired', failure_detail: expect.stringContaining('src/extra.ts') });
    const latest = await cold('palimpsest_graph_query', { from: [GREET], mode: 'dependents' }, true);
    expect(latest.snapshot.id).toBe((await cold('palimpsest_snapshot_status')).latest);
    expect(callersOf(latest)).toContain(MAIN);
    expect(callersOf(latest)).not.toContain('module:src/extra.ts');
  });

  it('refuses a handle never captured here and one that is not a handle, with the step that gives one', async () => {
    expect(await call('palimpsest_node_find', { query: 'greet', snapshot: `sha256:${'e'.repeat(64)}` }, true)).toMatchObject({ status: 'not_found', code: 'snapshot_unknown', next_actions: [{ operation: 'palimpsest_open_snapshot' }] });
    expect(await call('palimpsest_node_find', { query: 'greet', snapshot: 'yesterday' }, true)).toMatchObject({ status: 'invalid_argument', code: 'invalid_snapshot' });
  });
});
