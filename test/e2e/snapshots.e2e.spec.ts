import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { snapshotRoot } from '@palimpsest/core/snapshot/snapshot-root';
import { isolatedStore } from '../support/cli-process';
import { JsonLinesClient } from '../support/json-lines-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe(`workspace/open and workspace/status over palimpsest serve on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let dir: string;
  let s: JsonLinesClient;
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  const rootOf = (paths: string[]) => snapshotRoot(paths.map((path) => ({ path, sha256: sha(readFileSync(join(dir, path))) })));

  beforeAll(async () => {
    store = await isolatedStore();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-snapshots-e2e-'));
    put('src/a.ts', 'export const a = 1;\n');
    put('README.md', '# demo\n');
    s = new JsonLinesClient([], { ...store.env, PALIMPSEST_WORKSPACE_ROOT: dir });
  });
  afterAll(async () => {
    s.kill();
    rmSync(dir, { recursive: true, force: true });
    await store.dispose();
  });

  it('opens the content-derived handle, says the disk changed after an edit, and reads the older snapshot from the log', async () => {
    const paths = ['README.md', 'src/a.ts'];
    const opened = await s.call('workspace/open');
    expect(opened.result).toMatchObject({ status: 'ok', recorded: true, snapshot: { id: rootOf(paths), files: 2, disk: { state: 'unchanged' } } });
    const first = opened.result.snapshot;
    expect((await s.call('workspace/open', {})).result).toMatchObject({ recorded: false, snapshot: { id: first.id, log_sequence: first.log_sequence } });

    const before = readFileSync(join(dir, 'src/a.ts'), 'utf8');
    expect((await s.call('edit_file', { path: 'src/a.ts', oldString: '= 1', newString: '= 2' })).result).toMatchObject({ status: 'ok' });
    const changed = await s.call('workspace/status');
    expect(changed.result).toMatchObject({
      status: 'ok', state: 'changed', latest: rootOf(paths), latest_recorded: false, total: 1,
      snapshots: [{ id: first.id, log_sequence: first.log_sequence }],
      disk: { state: 'changed', changed_paths: [{ path: 'src/a.ts', change: 'modified' }] },
    });

    const second = (await s.call('workspace/open')).result.snapshot;
    expect(second.id).toBe(rootOf(paths));
    expect(second.id).not.toBe(first.id);
    const old = await s.call('palimpsest_read_snapshot_file', { snapshot: first.id, path: 'src/a.ts' });
    expect(old.result).toMatchObject({ status: 'ok', content: before, file: { source: 'log', version: null, as_of: { version: 0 } }, snapshot: { id: first.id, disk: { state: 'changed', latest: second.id } } });

    const status = await s.call('workspace/status', { limit: 10 });
    expect(status.result).toMatchObject({ state: 'unchanged', latest: second.id, latest_recorded: true, total: 2 });
    expect(status.result.snapshots.map((x: { id: string }) => x.id)).toEqual([second.id, first.id]);
  });

  it('answers a malformed handle -32602 and an unknown one -32000, with their codes', async () => {
    const bad = await s.call('workspace/open', { snapshot: 'sha256:XYZ' });
    expect(bad.error).toMatchObject({ code: -32602, data: { code: 'invalid_snapshot' } });
    const unknown = await s.call('workspace/open', { snapshot: `sha256:${'a'.repeat(64)}` });
    expect(unknown.error).toMatchObject({ code: -32000, data: { code: 'snapshot_unknown' } });
    s.end();
    expect((await s.exited).code).toBe(0);
  });
});
