import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { snapshotRoot } from '@palimpsest/core/snapshot/snapshot-root';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';
import { snapshotFiles } from './snapshot-files';

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

describe(`workspace snapshots on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  const call = async (name: string, args: unknown = {}) => (await dispatch(h.ctx, name, args)) as Record<string, any>;
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(h.dir, path)), { recursive: true });
    writeFileSync(join(h.dir, path), text);
  };
  const disk = (path: string) => readFileSync(join(h.dir, path));
  /** The oracle: the handle of the listed files as they are on disk, computed apart from the walk. */
  const expectedRoot = (paths: string[]) => snapshotRoot(paths.map((path) => ({ path, sha256: sha(disk(path)) })));
  const PATHS = ['.gitignore', 'README.md', 'src/a.ts', 'src/b.ts'];
  let s0: { id: string; log_sequence: number };
  let a0: Buffer;

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-snapshots-');
    put('.gitignore', 'build/\n');
    put('build/out.js', 'ignored');
    put('README.md', '# notes\n');
    put('src/a.ts', 'export const a = 1;\n');
    put('src/b.ts', 'export const b = 1;\r\nexport const c = 2;\r\n');
  });
  afterAll(() => h.dispose());

  it('names the same content with the same handle, recorded once, and exports its path → digest map', async () => {
    const first = await call('palimpsest_open_snapshot');
    expect(first).toMatchObject({ status: 'ok', recorded: true, root: h.dir, snapshot: { id: expectedRoot(PATHS), files: 4, disk: { state: 'unchanged', changed_total: 0 } } });
    const again = await call('palimpsest_open_snapshot', { snapshot: 'latest' });
    expect(again).toMatchObject({ status: 'ok', recorded: false, snapshot: { id: first.snapshot.id, log_sequence: first.snapshot.log_sequence } });
    s0 = first.snapshot;
    a0 = disk('src/a.ts');
    const files = await snapshotFiles(h.ctx, first.snapshot.id);
    expect([...files!.entries()]).toEqual(PATHS.map((p) => [p, sha(disk(p))]));
    expect(await snapshotFiles(h.ctx, `sha256:${'0'.repeat(64)}`)).toBeNull();
  });

  it('records racing opens of new content once: both answer the handle at the one position', async () => {
    put('race.txt', 'racing\n');
    const both = await Promise.all([call('palimpsest_open_snapshot'), call('palimpsest_open_snapshot')]);
    expect(both.map((r) => r.recorded).sort()).toEqual([false, true]);
    expect(both[1]!.snapshot).toEqual(both[0]!.snapshot);
    const { rows } = await h.testDb.db.query(`SELECT count(*)::int AS n FROM events WHERE event_type = 'WorkspaceSnapshotCaptured' AND data->>'snapshot' = $1`, [both[0]!.snapshot.id]);
    expect(rows[0]).toEqual({ n: 1 });
    rmSync(join(h.dir, 'race.txt'));
  });

  it('answers a new handle after an edit; the older snapshot still reads the older bytes from the log, as an as_of read does, and marks the changed paths', async () => {
    expect((await call('edit_file', { path: 'src/a.ts', oldString: '1', newString: '2' })).status).toBe('ok');
    expect((await call('edit_file', { path: 'src/b.ts', oldString: 'c = 2', newString: 'c = 3' })).status).toBe('ok');
    const oldA = disk('src/a.ts');
    const oldB = disk('src/b.ts');
    const s1 = await call('palimpsest_open_snapshot');
    expect(s1).toMatchObject({ status: 'ok', recorded: true, snapshot: { id: expectedRoot(PATHS) } });

    expect((await call('edit_file', { path: 'src/a.ts', oldString: '2', newString: '3' })).status).toBe('ok');
    expect((await call('edit_file', { path: 'src/b.ts', oldString: 'c = 3', newString: 'c = 4' })).status).toBe('ok');
    put('README.md', '# notes, edited outside\n');
    put('src/new.ts', 'export {};\n');
    const s2 = await call('palimpsest_open_snapshot');
    expect(s2.snapshot.id).not.toBe(s1.snapshot.id);
    expect(s2.snapshot.id).toBe(expectedRoot([...PATHS, 'src/new.ts']));
    expect(s2.snapshot.log_sequence).toBeGreaterThan(s1.snapshot.log_sequence);

    const a = await call('palimpsest_read_snapshot_file', { snapshot: s1.snapshot.id, path: 'src/a.ts' });
    expect(a).toMatchObject({ status: 'ok', content: oldA.toString('utf8'), file: { sha256: sha(oldA), source: 'log', version: 1 } });
    expect(a.snapshot).toMatchObject({ id: s1.snapshot.id, log_sequence: s1.snapshot.log_sequence, disk: { state: 'changed', latest: s2.snapshot.id, changed_total: 4 } });
    expect(a.snapshot.disk.changed_paths).toEqual([
      { path: 'README.md', change: 'modified' },
      { path: 'src/a.ts', change: 'modified' },
      { path: 'src/b.ts', change: 'modified' },
      { path: 'src/new.ts', change: 'added' },
    ]);
    const asOf = await call('read_file', { path: 'src/a.ts', as_of: { position: s1.snapshot.log_sequence } });
    expect(asOf.content).toBe(a.content);
    const workspace = await call('palimpsest_workspace_as_of', { as_of: { position: s1.snapshot.log_sequence } });
    const recorded = await h.testDb.db.query<{ files: { path: string; version: number | null }[] }>(
      `SELECT data->'files' AS files FROM events WHERE event_type = 'WorkspaceSnapshotCaptured' AND global_position = $1`, [s1.snapshot.log_sequence]);
    const bound = recorded.rows[0]!.files.filter((f) => f.version !== null).map((f) => [f.path, f.version]);
    expect(bound).toEqual([['src/a.ts', 1], ['src/b.ts', 1]]);
    expect(workspace.files.map((f: any) => [f.path, f.version])).toEqual(bound);

    // CRLF kept: the log holds LF text, the snapshot's bytes are the file's.
    const b = await call('palimpsest_read_snapshot_file', { snapshot: s1.snapshot.id, path: 'src/b.ts' });
    expect(b).toMatchObject({ status: 'ok', content: oldB.toString('utf8'), file: { sha256: sha(oldB), source: 'log' } });
    expect((await call('read_file', { path: 'src/b.ts', as_of: { position: s1.snapshot.log_sequence } })).content).toBe(b.content);

    const now = await call('palimpsest_read_snapshot_file', { snapshot: s2.snapshot.id, path: 'src/a.ts', offset: 1, limit: 1 });
    expect(now).toMatchObject({ status: 'ok', content: disk('src/a.ts').toString('utf8'), snapshot: { disk: { state: 'unchanged', changed_paths: [] } } });

    // Captured before it was bound, bound later from those very bytes: read from its import (version 0).
    const imported = await call('palimpsest_read_snapshot_file', { snapshot: s0.id, path: 'src/a.ts' });
    expect(imported).toMatchObject({ status: 'ok', content: a0.toString('utf8'), file: { sha256: sha(a0), source: 'log', target_file_id: null, version: null, as_of: { version: 0 } } });

    // An unbound file: read from the disk while it holds the captured bytes, refused once it does not.
    const gitignore = await call('palimpsest_read_snapshot_file', { snapshot: s1.snapshot.id, path: '.gitignore' });
    expect(gitignore).toMatchObject({ status: 'ok', content: 'build/\n', file: { source: 'disk', target_file_id: null } });
    const readme = await call('palimpsest_read_snapshot_file', { snapshot: s1.snapshot.id, path: 'README.md' });
    expect(readme).toMatchObject({ status: 'not_found', code: 'snapshot_content_unavailable', next_actions: [{ operation: 'read_file' }] });
  });

  it('says the state and the same handles, newest first, and reopens a recorded snapshot by its handle', async () => {
    const status = await call('palimpsest_snapshot_status');
    expect(status).toMatchObject({ status: 'ok', state: 'unchanged', latest_recorded: true, total: 4, root: h.dir });
    const handles = status.snapshots.map((s: any) => s.id);
    expect(status.latest).toBe(handles[0]);
    expect(new Set(handles).size).toBe(4);
    expect(status.snapshots.map((s: any) => s.log_sequence)).toEqual([...status.snapshots.map((s: any) => s.log_sequence)].sort((x, y) => y - x));

    rmSync(join(h.dir, 'src/new.ts'));
    const changed = await call('palimpsest_snapshot_status', { limit: 1 });
    expect(changed).toMatchObject({ state: 'changed', latest_recorded: false, total: 4, disk: { state: 'changed', changed_paths: [{ path: 'src/new.ts', change: 'deleted' }] } });
    expect(changed.snapshots).toHaveLength(1);
    expect(changed.latest).toBe(expectedRoot(PATHS));

    const oldest = status.snapshots[3];
    const reopened = await call('palimpsest_open_snapshot', { snapshot: oldest.id });
    expect(reopened).toMatchObject({ status: 'ok', recorded: false, snapshot: { id: oldest.id, log_sequence: oldest.log_sequence, disk: { state: 'changed' } } });
  });

  it('refuses a malformed handle, an unknown one, a path outside the snapshot and one outside the root, with a next step', async () => {
    expect(await call('palimpsest_open_snapshot', { snapshot: 'sha256:ABC' })).toMatchObject({ status: 'invalid_argument', code: 'invalid_snapshot', next_actions: [{ operation: 'palimpsest_open_snapshot' }] });
    const unknown = `sha256:${'f'.repeat(64)}`;
    expect(await call('palimpsest_open_snapshot', { snapshot: unknown })).toMatchObject({ status: 'not_found', code: 'snapshot_unknown', snapshot: unknown });
    expect(await call('palimpsest_read_snapshot_file', { snapshot: unknown, path: 'src/a.ts' })).toMatchObject({ status: 'not_found', code: 'snapshot_unknown' });
    const latest = (await call('palimpsest_snapshot_status')).snapshots[0].id;
    expect(await call('palimpsest_read_snapshot_file', { snapshot: latest, path: 'build/out.js' })).toMatchObject({ status: 'not_found', code: 'path_not_in_snapshot' });
    expect(await call('palimpsest_read_snapshot_file', { snapshot: latest, path: '../x' })).toMatchObject({ status: 'invalid_argument', code: 'PATH_ESCAPE' });
    expect(await call('palimpsest_open_snapshot', { extra: 1 })).toMatchObject({ status: 'invalid_argument' });
  });

  it('holds a read-only session\'s capture without writing the log, and reopens and reads it by its handle', async () => {
    const readOnly = async (name: string, args: unknown = {}) => (await dispatch(h.ctx, name, args, { readOnly: true })) as Record<string, any>;
    const count = async () => Number((await h.testDb.db.query<{ n: string }>('SELECT count(*)::text AS n FROM events')).rows[0]!.n);
    put('src/held.ts', 'export const held = 1;\n');
    const before = await count();
    const { latest } = await readOnly('palimpsest_snapshot_status');
    const held = await readOnly('palimpsest_open_snapshot');
    expect(held).toMatchObject({ status: 'ok', recorded: false, held: true, snapshot: { id: latest, disk: { state: 'unchanged' } } });
    expect(await readOnly('palimpsest_open_snapshot')).toEqual(held);
    expect(await readOnly('palimpsest_read_snapshot_file', { snapshot: held.snapshot.id, path: 'src/held.ts' })).toMatchObject({ status: 'ok', content: expect.stringContaining('held = 1'), snapshot: { id: held.snapshot.id } });
    expect(await readOnly('palimpsest_read_snapshot_file', { snapshot: 'latest', path: 'src/a.ts' })).toMatchObject({ status: 'ok', snapshot: { id: held.snapshot.id } });
    expect((await snapshotFiles(h.ctx, held.snapshot.id))?.get('src/held.ts')).toBe(sha(disk('src/held.ts')));
    expect(await count()).toBe(before);
    // A full session records the same content as a snapshot; the read-only one then reopens the recorded one.
    const recorded = await call('palimpsest_open_snapshot');
    expect(recorded).toMatchObject({ recorded: true, held: false, snapshot: { id: held.snapshot.id } });
    expect(await readOnly('palimpsest_open_snapshot', { snapshot: held.snapshot.id })).toMatchObject({ held: false, snapshot: { log_sequence: recorded.snapshot.log_sequence } });
    rmSync(join(h.dir, 'src/held.ts'));
  });
});
