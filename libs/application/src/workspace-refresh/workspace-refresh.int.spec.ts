import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decide as decidePublication } from '@palimpsest/core/publication/publication.decider';
import { publicationStreamId } from '@palimpsest/core/publication/publication.events';
import { NEW_JOURNAL } from '@palimpsest/projections/publications/publication-append';
import { commitPublicationEvents } from '../shared/commit-events';
import { rebuildProjections } from '@palimpsest/projections/rebuild/rebuild-projections';
import { readModelDigests } from '@palimpsest/projections/rebuild/read-model-digest';
import { readStream } from '@palimpsest/store/read-stream';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { openWorkspaceRoot, type WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { type AppContext } from '../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatchRequest as dispatch } from '../dispatch/dispatch';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

describe(`palimpsest_workspace_refresh on ${describeBackend}`, () => {
  let testDb: TestDb;
  let dir: string;
  let otherDir: string;
  let root: WorkspaceRoot;
  let otherRoot: WorkspaceRoot;
  let ctx: AppContext;
  const call = (name: string, args: unknown, c: AppContext = ctx) => dispatch(c, name, args) as Promise<Record<string, any>>;
  const countEvents = async () => Number((await testDb.db.query('SELECT count(*) AS n FROM events')).rows[0].n);
  const fileRow = async (id: string) => (await testDb.db.query('SELECT * FROM workspace_files WHERE target_id = $1', [id])).rows[0];
  const types = async (id: string) => (await readStream(testDb.db, `target-${id}`)).map((e) => e.type);

  async function imported(path: string, bytes: string | Buffer): Promise<string> {
    writeFileSync(join(dir, path), bytes);
    const r = await call('palimpsest_initialize_target', { filename: path, from_workspace: true });
    expect(r.status).toBe('ok');
    return r.target_file_id;
  }

  beforeAll(async () => {
    testDb = await createTestDb();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-refresh-'));
    otherDir = mkdtempSync(join(tmpdir(), 'palimpsest-refresh-other-'));
    mkdirSync(join(dir, 'docs'));
    root = openWorkspaceRoot(dir);
    otherRoot = openWorkspaceRoot(otherDir);
    ctx = appContext(testDb.db, { workspace: root });
  });
  afterAll(async () => {
    root.close();
    otherRoot.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(otherDir, { recursive: true, force: true });
    await testDb.dispose();
  });

  it('takes an external edit in as an accepted whole replacement with source external_disk, then answers in_sync', async () => {
    const id = await imported('notes.md', 'one\ntwo\n');
    writeFileSync(join(dir, 'notes.md'), 'one\nTWO\nthree\n');
    const r = await call('palimpsest_workspace_refresh', { target_file_id: id });
    expect(r).toMatchObject({
      status: 'refreshed', target_file_id: id, path: 'notes.md', version: 1, current_hash: sha256('one\nTWO\nthree\n'),
      disk_sha256: sha256('one\nTWO\nthree\n'), previous_disk_sha256: sha256('one\ntwo\n'), attempt_id: expect.any(String), journal_resolved: null,
    });
    expect(r.next_actions.map((a: { operation: string }) => a.operation)).toEqual(['palimpsest_get_attempt_log', 'palimpsest_workspace_status']);
    expect(await types(id)).toEqual(['TargetInitialized', 'WorkspaceFileBound', 'ProposalAccepted', 'WorkspaceFileRefreshed']);
    const stream = await readStream(testDb.db, `target-${id}`);
    expect(stream[3]!.data).toEqual({
      target_id: id, path: 'notes.md', disk_sha256: r.disk_sha256, previous_disk_sha256: r.previous_disk_sha256,
      attempt_id: r.attempt_id, source_line_ending_style: 'lf', refreshed_at: stream[3]!.data.refreshed_at,
    });
    const log = await call('palimpsest_get_attempt_log', { target_file_id: id, detail: true });
    expect(log.entries[0]).toMatchObject({ attempt_id: r.attempt_id, status: 'accepted', source: 'external_disk', protocol_version: 'patchdiff-tx/3' });
    const ledger = await call('palimpsest_get_manifest_ledger', { target_file_id: id });
    expect(ledger.entries).toEqual([expect.objectContaining({ attempt_id: r.attempt_id })]);
    expect(await fileRow(id)).toMatchObject({ disk_sha256: r.disk_sha256, source_sha256: sha256('one\ntwo\n'), open_journal_id: null, journal_state: null });
    const again = await call('palimpsest_workspace_refresh', { target_file_id: id });
    expect(again).toMatchObject({ status: 'in_sync', version: 1, current_hash: r.current_hash, disk_sha256: r.disk_sha256 });
    expect(await types(id)).toHaveLength(4);
    expect(await call('palimpsest_replay', { target_file_id: id })).toMatchObject({ status: 'success', reconstructed_version: 1, materialized_state_matches: true });
  });

  it('keeps the recorded CRLF style of an edited CRLF file', async () => {
    const id = await imported('docs/crlf.md', 'one\r\ntwo\r\n');
    writeFileSync(join(dir, 'docs/crlf.md'), 'one\r\nthree\r\n');
    const r = await call('palimpsest_workspace_refresh', { target_file_id: id });
    expect(r).toMatchObject({ status: 'refreshed', version: 1, current_hash: sha256('one\nthree\n') });
    const stream = await readStream(testDb.db, `target-${id}`);
    expect(stream[3]!.data.source_line_ending_style).toBe('crlf');
    expect(await call('palimpsest_get_target', { target_file_id: id })).toMatchObject({ current_content: 'one\nthree\n', source_line_endings: { style: 'crlf' } });
    expect(await call('palimpsest_export_target', { target_file_id: id, format: 'original_eol' })).toMatchObject({ content: 'one\r\nthree\r\n' });
    expect(await call('palimpsest_replay', { target_file_id: id })).toMatchObject({ status: 'success', materialized_state_matches: true });
  });

  it('moves only the baseline when the bytes changed and the canonical text did not (line endings)', async () => {
    const id = await imported('bytes.md', 'a\nb\n');
    writeFileSync(join(dir, 'bytes.md'), 'a\r\nb\r\n');
    const r = await call('palimpsest_workspace_refresh', { target_file_id: id });
    expect(r).toMatchObject({ status: 'refreshed', attempt_id: null, version: 0, disk_sha256: sha256('a\r\nb\r\n'), previous_disk_sha256: sha256('a\nb\n') });
    expect(await types(id)).toEqual(['TargetInitialized', 'WorkspaceFileBound', 'WorkspaceFileRefreshed']);
    expect((await readStream(testDb.db, `target-${id}`))[2]!.data).toMatchObject({ attempt_id: null, source_line_ending_style: 'crlf' });
    expect((await call('palimpsest_get_attempt_log', { target_file_id: id })).entries).toEqual([]);
    expect(await call('palimpsest_workspace_refresh', { target_file_id: id })).toMatchObject({ status: 'in_sync', version: 0 });
  });

  it('refuses stale guards, unbound targets, a missing workspace, a missing file, non-UTF-8 bytes and another root, recording nothing', async () => {
    const id = await imported('guarded.md', 'x\n');
    writeFileSync(join(dir, 'guarded.md'), 'y\n');
    const inline = await call('palimpsest_initialize_target', { filename: 'inline.md', content: 'z\n' });
    const before = await countEvents();
    expect(await call('palimpsest_workspace_refresh', { target_file_id: id, expected_target_version: 3 })).toMatchObject({
      status: 'rejected', failure_reason: 'target_version_mismatch', current_version: 0,
      next_actions: [{ operation: 'palimpsest_get_target', reason: expect.stringContaining('refresh with the new guard'), params: { target_file_id: id } }],
    });
    expect(await call('palimpsest_workspace_refresh', { target_file_id: id, expected_current_hash: sha256('other') })).toMatchObject({
      status: 'rejected', failure_reason: 'target_hash_mismatch',
    });
    expect(await call('palimpsest_workspace_refresh', { target_file_id: inline.target_file_id })).toMatchObject({ status: 'invalid_argument', code: 'target_not_bound_to_workspace' });
    expect(await call('palimpsest_workspace_refresh', { target_file_id: id }, appContext(testDb.db, { workspace: null }))).toMatchObject({
      status: 'invalid_argument', code: 'workspace_not_configured',
    });
    expect(await call('palimpsest_workspace_refresh', { target_file_id: id }, appContext(testDb.db, { workspace: otherRoot }))).toMatchObject({
      status: 'invalid_argument', code: 'workspace_root_mismatch',
      bound_root: { dev: root.dev, ino: root.ino }, configured_root: { dev: otherRoot.dev, ino: otherRoot.ino },
    });
    expect(await call('palimpsest_workspace_refresh', { target_file_id: randomUUID() })).toMatchObject({ status: 'not_found', code: 'target_not_found' });
    writeFileSync(join(dir, 'guarded.md'), Buffer.from([0x63, 0xe9, 0x0a]));
    expect(await call('palimpsest_workspace_refresh', { target_file_id: id })).toMatchObject({ status: 'invalid_argument', code: 'invalid_text_encoding' });
    rmSync(join(dir, 'guarded.md'));
    expect(await call('palimpsest_workspace_refresh', { target_file_id: id })).toMatchObject({ status: 'not_found', code: 'PATH_NOT_FOUND', path: 'guarded.md' });
    expect(await countEvents()).toBe(before);
    writeFileSync(join(dir, 'guarded.md'), 'y\n');
    expect(await call('palimpsest_workspace_refresh', { target_file_id: id, expected_target_version: 0 })).toMatchObject({ status: 'refreshed', version: 1 });
  });

  it('resolves a pending_reconcile publication journal on the file, in the same transaction', async () => {
    const id = await imported('pending.md', 'old\n');
    const journalId = randomUUID();
    const files = [{ target_id: id, path: 'pending.md', target_version: 0, staged_sha256: sha256('staged\n'), replaced_sha256: sha256('old\n'), bytes: 7, content_eol: 'lf' as const, stage_name: '.stage', backup_name: null }];
    const now = new Date().toISOString();
    // An interrupted publication that reconciliation could not settle: started, then pending_reconcile.
    await ctx.store.transaction(async (tx) => {
      let at = NEW_JOURNAL;
      for (const command of [
        { type: 'StartPublication' as const, now, journal_id: journalId, kind: 'save' as const, request_id: null, candidate_id: null, root_dev: root.dev, root_ino: root.ino, files },
        { type: 'FailPublication' as const, now, state: 'pending_reconcile' as const, reason: 'recovery_required' as const, detail: 'neither version', files: [{ target_id: id, path: 'pending.md', disk_sha256: sha256('x'), outcome: 'unknown' as const }], reconciled: true },
      ]) {
        const d = decidePublication(command, at.state);
        if (d.kind === 'refused') throw new Error(d.refusal.code);
        at = await commitPublicationEvents(tx, journalId, at, d.events, now, {});
      }
    });
    writeFileSync(join(dir, 'pending.md'), 'someone else\n');
    const r = await call('palimpsest_workspace_refresh', { target_file_id: id });
    expect(r).toMatchObject({ status: 'refreshed', version: 1, journal_resolved: journalId });
    const journal = await readStream(testDb.db, publicationStreamId(journalId));
    expect(journal.map((e) => [e.type, e.streamVersion])).toEqual([['PublicationStarted', 1], ['PublicationFailed', 2], ['PublicationResolved', 3]]);
    expect(journal[2]!.data).toEqual({ journal_id: journalId, resolution: 'refreshed', target_id: id, attempt_id: r.attempt_id, resolved_at: journal[2]!.data.resolved_at });
    expect(await fileRow(id)).toMatchObject({ open_journal_id: null, journal_state: null, disk_sha256: sha256('someone else\n') });
    const row = (await testDb.db.query('SELECT state, stream_version FROM publication_journals WHERE journal_id = $1', [journalId])).rows[0];
    expect(row).toMatchObject({ state: 'resolved', stream_version: 3 });
  });

  it('projections rebuild reproduces the refreshed baselines', async () => {
    const before = await readModelDigests(testDb.db);
    const report = await rebuildProjections(testDb.db);
    expect(report).toMatchObject({ equal: true, differing: [], missing: [], extra: [] });
    expect(await readModelDigests(testDb.db)).toEqual(before);
  });
});
