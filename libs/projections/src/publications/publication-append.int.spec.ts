import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppContext } from '@palimpsest/application/app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatch } from '@palimpsest/application/dispatch/dispatch';
import { decide } from '@palimpsest/core/publication/publication.decider';
import type { PublicationCommand } from '@palimpsest/core/publication/publication.commands';
import { StreamVersionConflictError } from '@palimpsest/store/errors';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { openWorkspaceRoot, type WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { rebuildProjections } from '../rebuild/rebuild-projections';
import { commitPublicationEvents } from '@palimpsest/application/shared/commit-events';
import { loadJournal, NEW_JOURNAL } from './publication-append';
import { openJournals } from './publication.queries';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const NOW = '2026-12-01T10:00:00.000Z';

describe(`the publication journal's unit of work on ${describeBackend}`, () => {
  let testDb: TestDb;
  let dir: string;
  let root: WorkspaceRoot;
  let ctx: AppContext;
  let targetId: string;

  beforeAll(async () => {
    testDb = await createTestDb();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-journal-'));
    writeFileSync(join(dir, 'a.md'), 'one\n');
    root = openWorkspaceRoot(dir);
    ctx = appContext(testDb.db, { workspace: root });
    const r = await dispatch(ctx, 'palimpsest_initialize_target', { filename: 'a.md', from_workspace: true });
    targetId = String(r.target_file_id);
  });
  afterAll(async () => {
    root.close();
    rmSync(dir, { recursive: true, force: true });
    await testDb.dispose();
  });

  const fileRow = async () =>
    (await testDb.db.query(`SELECT disk_sha256, open_journal_id::text, journal_state FROM workspace_files WHERE target_id = $1`, [targetId])).rows[0];

  async function run(journalId: string, command: PublicationCommand) {
    return ctx.store.transaction(async (tx) => {
      const loaded = command.type === 'StartPublication' ? NEW_JOURNAL : await loadJournal(tx, journalId);
      const d = decide(command, loaded.state);
      if (d.kind === 'refused') throw new Error(d.refusal.code);
      return commitPublicationEvents(tx, journalId, loaded, d.events, NOW, { command: command.type });
    });
  }

  const start = (journalId: string): PublicationCommand => ({
    type: 'StartPublication',
    now: NOW,
    journal_id: journalId,
    kind: 'save',
    request_id: null,
    candidate_id: null,
    root_dev: root.dev,
    root_ino: root.ino,
    files: [
      {
        target_id: targetId,
        path: 'a.md',
        target_version: 0,
        staged_sha256: sha256('two\n'),
        replaced_sha256: sha256('one\n'),
        bytes: 4,
        content_eol: 'lf',
        stage_name: `.a.md.${journalId}.stage`,
        backup_name: null,
      },
    ],
  });

  it('marks the file open while a journal runs, moves the baseline when it completes, and rebuilds to the same models', async () => {
    const journalId = ctx.ids.next();
    await run(journalId, start(journalId));
    expect(await fileRow()).toEqual({ disk_sha256: sha256('one\n'), open_journal_id: journalId, journal_state: 'started' });
    expect((await openJournals(testDb.db)).map((j) => j.journal_id)).toEqual([journalId]);

    const installed = [{ target_id: targetId, path: 'a.md', disk_sha256: sha256('two\n'), bytes_written: 4, durability: 'confirmed' as const }];
    const after = await run(journalId, { type: 'CompletePublication', now: NOW, files: installed, reconciled: false });
    expect(after).toMatchObject({ streamVersion: 2, state: { state: 'committed', installed } });
    expect(await fileRow()).toEqual({ disk_sha256: sha256('two\n'), open_journal_id: null, journal_state: null });
    expect(await openJournals(testDb.db)).toEqual([]);

    const pendingId = ctx.ids.next();
    await run(pendingId, start(pendingId));
    await run(pendingId, {
      type: 'FailPublication',
      now: NOW,
      state: 'pending_reconcile',
      reason: 'recovery_required',
      detail: 'neither version',
      files: [{ target_id: targetId, path: 'a.md', disk_sha256: sha256('other'), outcome: 'unknown' }],
      reconciled: true,
    });
    expect(await fileRow()).toEqual({ disk_sha256: sha256('two\n'), open_journal_id: pendingId, journal_state: 'pending_reconcile' });
    const journal = (await testDb.db.query(`SELECT state, reason, files FROM publication_journals WHERE journal_id = $1`, [pendingId])).rows[0];
    expect(journal).toMatchObject({ state: 'pending_reconcile', reason: 'recovery_required', files: [{ path: 'a.md', outcome: { outcome: 'unknown' } }] });

    const report = await rebuildProjections(testDb.db);
    expect(report).toMatchObject({ equal: true, differing: [], missing: [], extra: [] });
    expect(report.compared).toBeGreaterThanOrEqual(3);
  });

  it('a second writer of the same journal loses the append instead of recording a second outcome', async () => {
    const journalId = ctx.ids.next();
    await run(journalId, start(journalId));
    const stale = await testDb.db.transaction((tx) => loadJournal(tx, journalId));
    await run(journalId, { type: 'FailPublication', now: NOW, state: 'rolled_back', reason: 'interrupted', detail: 'x', files: [], reconciled: true });
    const d = decide({ type: 'CompletePublication', now: NOW, files: [], reconciled: true }, stale.state);
    if (d.kind !== 'accepted') throw new Error('the stale state still accepts');
    await expect(ctx.store.transaction((tx) => commitPublicationEvents(tx, journalId, stale, d.events, NOW, {}))).rejects.toBeInstanceOf(StreamVersionConflictError);
    expect(await fileRow()).toMatchObject({ open_journal_id: null, journal_state: null }); // the one recorded outcome cleared it
  });
});
