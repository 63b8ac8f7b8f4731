import { createHash } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rebuildProjections } from '@palimpsest/projections/rebuild/rebuild-projections';
import { readStream } from '@palimpsest/store/read-stream';
import { describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { openDestination } from '@palimpsest/workspace/workspace-destination';
import { type WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { waitingLeases } from '@palimpsest/workspace/workspace-lease';
import { type AppContext } from '../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

describe(`palimpsest_save with sync_workspace on ${describeBackend}`, () => {
  let testDb: TestDb;
  let dir: string;
  let root: WorkspaceRoot;
  let ctx: AppContext;
  const call = (name: string, args: unknown) => dispatch(ctx, name, args) as Promise<Record<string, any>>;
  const file = (path: string) => readFileSync(join(dir, path));

  // publish on_save by default here: the target moves ahead of its file until a save publishes it.
  async function imported(path: string, bytes: string, publish = 'on_save'): Promise<string> {
    writeFileSync(join(dir, path), bytes);
    const r = await call('palimpsest_initialize_target', { filename: path, from_workspace: true, publish });
    expect(r.status).toBe('ok');
    return r.target_file_id;
  }
  const replace = (id: string, version: number, replacement: string) =>
    call('palimpsest_submit_replacement', { target_file_id: id, intent: 'rewrite', expected_target_version: version, replacement });
  const journalEvents = async (journalId: string) => (await readStream(testDb.db, `publication-${journalId}`)).map((e) => e.type);
  const stray = () => readdirSync(dir).filter((n) => n.startsWith('.palimpsest-'));

  let harness: WorkspaceHarness;
  beforeAll(async () => {
    harness = await createWorkspaceHarness('palimpsest-save-');
    ({ testDb, dir, root, ctx } = harness);
  });
  afterAll(() => harness.dispose());

  it('publishes the text in its recorded line endings, keeps the file mode, and commits the checkpoint with the journal', async () => {
    const id = await imported('crlf.md', 'one\r\ntwo\r\n');
    chmodSync(join(dir, 'crlf.md'), 0o640);
    expect((await replace(id, 0, 'one\nthree\n')).status).toBe('accepted');
    const saved = await call('palimpsest_save', { target_file_id: id, expected_target_version: 1, sync_workspace: true });
    const bytes = 'one\r\nthree\r\n';
    expect(saved).toMatchObject({
      status: 'saved',
      version: 1,
      workspace_sync: { synced_path: 'crlf.md', disk_sha256: sha256(bytes), bytes_written: 12, content_eol: 'crlf', publication: 'installed', durability: 'confirmed', journal: { state: 'committed' } },
    });
    expect(file('crlf.md').toString()).toBe(bytes);
    expect(statSync(join(dir, 'crlf.md')).mode & 0o777).toBe(0o640);
    expect(await journalEvents(saved.workspace_sync.journal.id)).toEqual(['PublicationStarted', 'PublicationCompleted']);
    const target = await readStream(testDb.db, `target-${id}`);
    expect(target.map((e) => e.type)).toContain('CheckpointSaved');
    const row = (await testDb.db.query('SELECT disk_sha256, open_journal_id FROM workspace_files WHERE target_id = $1', [id])).rows[0];
    expect(row).toEqual({ disk_sha256: sha256(bytes), open_journal_id: null });
    expect(stray()).toEqual([]);

    // The next publication checks drift against what was just published, not what was imported.
    expect((await replace(id, 1, 'one\nfour\n')).status).toBe('accepted');
    const again = await call('palimpsest_save', { target_file_id: id, sync_workspace: true, workspace_eol_format: 'canonical_lf' });
    expect(again).toMatchObject({ status: 'saved', workspace_sync: { content_eol: 'lf', disk_sha256: sha256('one\nfour\n') } });
    expect(file('crlf.md').toString()).toBe('one\nfour\n');
  });

  it('refuses an external edit as external_disk_drift and leaves the file intact, with no checkpoint and no journal', async () => {
    const id = await imported('drift.md', 'a\n');
    expect((await replace(id, 0, 'b\n')).status).toBe('accepted');
    writeFileSync(join(dir, 'drift.md'), 'edited by hand\n');
    const before = (await readStream(testDb.db, `target-${id}`)).length;
    const r = await call('palimpsest_save', { target_file_id: id, sync_workspace: true });
    expect(r).toMatchObject({
      status: 'rejected',
      failure_reason: 'external_disk_drift',
      retryable: 'after_refresh',
      diagnostic: { path: 'drift.md', expected_sha256: sha256('a\n'), observed_sha256: sha256('edited by hand\n'), journal_id: null },
      next_actions: [{ operation: 'palimpsest_workspace_refresh', params: { target_file_id: id } }],
    });
    expect(file('drift.md').toString()).toBe('edited by hand\n');
    expect((await readStream(testDb.db, `target-${id}`)).length).toBe(before);
  });

  it('waits its turn while another holder has the lease of the directory, and saves once it is released', async () => {
    const id = await imported('wait.md', 'x\n');
    expect((await replace(id, 0, 'y\n')).status).toBe('accepted');
    const opened = openDestination(root, 'wait.md', { createParents: false });
    if (opened.kind !== 'opened') throw new Error('no destination');
    const lease = await ctx.leases.tryAcquire([opened.dest.dir]);
    let answered = false;
    const saving = call('palimpsest_save', { target_file_id: id, sync_workspace: true }).finally(() => (answered = true));
    try {
      await new Promise((resolve) => setTimeout(resolve, 100)); // the holder keeps it a while: the save must not answer meanwhile
      expect(answered).toBe(false);
      expect(file('wait.md').toString()).toBe('x\n');
    } finally {
      await lease?.release();
      opened.dest.close();
    }
    expect((await saving).status).toBe('saved');
    expect(file('wait.md').toString()).toBe('y\n');
  });

  it('answers workspace_busy once its bounded wait for the lease is over, and writes nothing', async () => {
    const id = await imported('busy.md', 'x\n');
    expect((await replace(id, 0, 'y\n')).status).toBe('accepted');
    const opened = openDestination(root, 'busy.md', { createParents: false });
    if (opened.kind !== 'opened') throw new Error('no destination');
    const lease = await ctx.leases.tryAcquire([opened.dest.dir]);
    const impatient = appContext(testDb.db, { workspace: root, contents: ctx.contents, leases: waitingLeases(ctx.leases, 50) });
    try {
      const r = (await dispatch(impatient, 'palimpsest_save', { target_file_id: id, sync_workspace: true })) as Record<string, any>;
      expect(r).toMatchObject({ status: 'rejected', failure_reason: 'workspace_busy', retryable: 'same_request', diagnostic: { waited_ms: 50 }, next_actions: [{ operation: 'palimpsest_save' }] });
      expect(file('busy.md').toString()).toBe('x\n');
    } finally {
      await lease?.release();
      opened.dest.close();
    }
    expect((await call('palimpsest_save', { target_file_id: id, sync_workspace: true })).status).toBe('saved');
    expect(file('busy.md').toString()).toBe('y\n');
  });

  it('concurrent saves of one target are saved or workspace_busy: a baseline another save just moved is not drift', async () => {
    const id = await imported('concurrent.md', 'c0\n');
    for (let round = 1; round <= 3; round++) {
      expect((await replace(id, round - 1, `c${round}\n`)).status).toBe('accepted');
      // Staggered, so some saves read the baseline before another's publication and take the lease after it.
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => new Promise((r) => setTimeout(r, i)).then(() => call('palimpsest_save', { target_file_id: id, sync_workspace: true }))));
      const kinds = answers.map((a) => (a.status === 'saved' ? 'saved' : a.failure_reason));
      expect(kinds.filter((k) => k !== 'saved' && k !== 'workspace_busy')).toEqual([]);
      expect(kinds).toContain('saved');
      expect(file('concurrent.md').toString()).toBe(`c${round}\n`);
    }
    expect(stray()).toEqual([]);
  });

  it('checks the guards before any IO, and refuses what cannot be published', async () => {
    const id = await imported('guard.md', 'g\n', 'on_accept');
    const stale = await call('palimpsest_save', { target_file_id: id, expected_target_version: 3, sync_workspace: true });
    expect(stale).toMatchObject({ status: 'rejected', failure_reason: 'target_version_mismatch' });
    const inline = await call('palimpsest_initialize_target', { filename: 'inline.md', content: 'i\n' });
    expect(await call('palimpsest_save', { target_file_id: inline.target_file_id, sync_workspace: true })).toMatchObject({
      status: 'invalid_argument',
      code: 'target_not_bound_to_workspace',
    });
    expect(await call('palimpsest_save', { target_file_id: id, sync_workspace: true, workspace_eol_format: 'cr' })).toMatchObject({
      status: 'invalid_argument',
      code: 'unsupported_workspace_eol_format',
    });
    expect(await call('palimpsest_save', { target_file_id: id, sync_workspace: false })).toMatchObject({ status: 'saved' });
    expect(await call('palimpsest_save', { target_file_id: id })).not.toHaveProperty('workspace_sync');
    expect(file('guard.md').toString()).toBe('g\n');
    // A binding that waits for saves is published by a save that does not say.
    const deferred = await imported('deferred.md', 'd\n');
    expect((await replace(deferred, 0, 'D\n')).status).toBe('accepted');
    expect(file('deferred.md').toString()).toBe('d\n');
    expect(await call('palimpsest_save', { target_file_id: deferred, sync_workspace: false })).not.toHaveProperty('workspace_sync');
    expect(await call('palimpsest_save', { target_file_id: deferred })).toMatchObject({ status: 'saved', workspace_sync: { synced_path: 'deferred.md' } });
    expect(file('deferred.md').toString()).toBe('D\n');
  });

  it('rebuilds every read model, journals included, to what it replaced', async () => {
    const report = await rebuildProjections(testDb.db);
    expect(report).toMatchObject({ equal: true, differing: [], missing: [], extra: [] });
  });
});
