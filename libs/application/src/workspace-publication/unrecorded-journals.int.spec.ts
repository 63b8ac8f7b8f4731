import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { loadJournal } from '@palimpsest/projections/publications/publication-append';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { openWorkspaceRoot, type WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import type { AppContext } from '../app-context';
import { dispatch } from '../dispatch/dispatch';
import { backupName, OpenedFiles, stageName } from './publication-files';
import { reconcileAtStart } from './recover-journal';
import { settleBeforeIntake } from './settle-before-intake';
import { latestBindingsUnder } from '@palimpsest/projections/workspace-files.queries';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * The settling of journals only the disk knows, on leftovers planted as a killed edit leaves them (the
 * kills themselves are edit-file-crash.e2e.spec.ts): what the hashes cannot tell is left as found.
 */
describe(`unrecorded journals settled at start on ${describeBackend}`, () => {
  let testDb: TestDb;
  let dir: string;
  let root: WorkspaceRoot;
  let ctx: AppContext;
  const at = (name: string) => join(dir, name);

  beforeAll(async () => {
    testDb = await createTestDb();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-unrecorded-'));
    root = openWorkspaceRoot(dir);
    ctx = appContext(testDb.db, { workspace: root });
    writeFileSync(at('f.txt'), 'one\n');
    expect(await dispatch(ctx, 'edit_file', { path: 'f.txt', oldString: 'one', newString: 'two' })).toMatchObject({ status: 'ok' });
  });
  afterAll(async () => {
    await ctx.wakes.close();
    root.close();
    rmSync(dir, { recursive: true, force: true });
    await testDb.dispose();
  });

  it('leaves a file holding neither version as found, its backup kept, and records the journal pending_reconcile', async () => {
    const journal = randomUUID();
    const backup = backupName(journal, 0, sha('three\n'));
    writeFileSync(at(backup), 'two\n');
    writeFileSync(at('f.txt'), 'edited by hand\n');
    await reconcileAtStart(ctx);
    expect(readFileSync(at('f.txt'), 'utf8')).toBe('edited by hand\n');
    expect(existsSync(at(backup))).toBe(true);
    const settled = (await loadJournal(testDb.db, journal)).state;
    expect(settled).toMatchObject({ exists: true, kind: 'write', state: 'pending_reconcile', reason: 'recovery_required', reconciled: true });
    expect(settled.exists && settled.files[0]).toMatchObject({ path: 'f.txt', staged_sha256: sha('three\n'), replaced_sha256: sha('two\n'), backup_name: backup });
    rmSync(at(backup));
    writeFileSync(at('f.txt'), 'two\n');
  });

  it('touches nothing it cannot name: a backup of other bytes, a stage alone, a planted name', async () => {
    const other = backupName(randomUUID(), 0, sha('x\n'));
    const stage = stageName(randomUUID(), 0);
    writeFileSync(at(other), 'not the baseline\n');
    writeFileSync(at(stage), 'three\n');
    writeFileSync(at('.palimpsest-planted.backup'), 'two\n');
    writeFileSync(at('f.txt'), 'x\n');
    await reconcileAtStart(ctx);
    expect(readFileSync(at('f.txt'), 'utf8')).toBe('x\n');
    for (const name of [other, stage, '.palimpsest-planted.backup']) expect(existsSync(at(name))).toBe(true);
    for (const name of [other, stage, '.palimpsest-planted.backup']) rmSync(at(name));
    writeFileSync(at('f.txt'), 'two\n');
  });

  it('puts the backup back over the staged bytes once, and a second start finds nothing left', async () => {
    const journal = randomUUID();
    const backup = backupName(journal, 0, sha('three\n'));
    writeFileSync(at(backup), 'two\n');
    writeFileSync(at('f.txt'), 'three\n');
    await reconcileAtStart(ctx);
    expect(readFileSync(at('f.txt'), 'utf8')).toBe('two\n');
    expect(existsSync(at(backup))).toBe(false);
    expect((await loadJournal(testDb.db, journal)).state).toMatchObject({ state: 'rolled_back', reason: 'interrupted', failed: [{ outcome: 'restored', disk_sha256: sha('two\n') }] });
    await reconcileAtStart(ctx);
    expect((await loadJournal(testDb.db, journal)).streamVersion).toBe(2);
    expect(await dispatch(ctx, 'edit_file', { path: 'f.txt', oldString: 'two', newString: 'three' })).toMatchObject({ status: 'ok', journal: { state: 'committed' } });
  });

  it('gives the backup to the file that holds its staged bytes when two files share a baseline', async () => {
    const ids: string[] = [];
    for (const name of ['a.txt', 'b.txt']) {
      writeFileSync(at(name), 'same0\n');
      const bound = (await dispatch(ctx, 'edit_file', { path: name, oldString: 'same0', newString: 'same' })) as Record<string, unknown>;
      expect(bound).toMatchObject({ status: 'ok' });
      ids.push(bound.target_file_id as string);
    }
    const journal = randomUUID();
    writeFileSync(at(backupName(journal, 0, sha('new\n'))), 'same\n');
    writeFileSync(at('b.txt'), 'new\n');
    await reconcileAtStart(ctx);
    expect([readFileSync(at('a.txt'), 'utf8'), readFileSync(at('b.txt'), 'utf8')]).toEqual(['same\n', 'same\n']);
    const settled = (await loadJournal(testDb.db, journal)).state;
    expect(settled).toMatchObject({ state: 'rolled_back', files: [{ target_id: ids[1], path: 'b.txt' }], failed: [{ outcome: 'restored' }] });
  });
  it('a refresh of the file puts the backup back instead of taking the unrecorded bytes in', async () => {
    writeFileSync(at('r.txt'), 'r0\n');
    const bound = (await dispatch(ctx, 'edit_file', { path: 'r.txt', oldString: 'r0', newString: 'r1' })) as Record<string, unknown>;
    const journal = randomUUID();
    writeFileSync(at(backupName(journal, 0, sha('r2\n'))), 'r1\n');
    writeFileSync(at('r.txt'), 'r2\n'); // what a process killed before its one COMMIT installed
    const refreshed = await dispatch(ctx, 'palimpsest_workspace_refresh', { target_file_id: bound.target_file_id as string });
    expect(refreshed).toMatchObject({ status: 'in_sync' });
    expect(readFileSync(at('r.txt'), 'utf8')).toBe('r1\n');
    expect((await loadJournal(testDb.db, journal)).state).toMatchObject({ state: 'rolled_back', failed: [{ outcome: 'restored' }] });
  });
  it('a one-commit write whose transaction fails after the install is put back and recorded with its rollback at once', async () => {
    writeFileSync(at('t.txt'), 't0\n');
    expect(await dispatch(ctx, 'edit_file', { path: 't.txt', oldString: 't0', newString: 't1' })).toMatchObject({ status: 'ok' });
    await testDb.db.query(`CREATE FUNCTION fail_completion() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.event_type = 'PublicationCompleted' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`);
    await testDb.db.query('CREATE TRIGGER fail_completion BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION fail_completion()');
    let failed: Record<string, any>;
    try {
      failed = (await dispatch(ctx, 'edit_file', { path: 't.txt', oldString: 't1', newString: 't2' })) as Record<string, any>;
    } finally {
      await testDb.db.query('DROP TRIGGER fail_completion ON events');
      await testDb.db.query('DROP FUNCTION fail_completion()');
    }
    expect(failed).toMatchObject({ failure_reason: 'workspace_io_error', diagnostic: { journal: { state: 'rolled_back' } } });
    expect(readFileSync(at('t.txt'), 'utf8')).toBe('t1\n');
    const journal = (await loadJournal(testDb.db, failed.diagnostic.journal.id)).state;
    expect(journal).toMatchObject({ exists: true, state: 'rolled_back', failed: [{ outcome: 'restored' }] });
    expect(await dispatch(ctx, 'edit_file', { path: 't.txt', oldString: 't1', newString: 't2' })).toMatchObject({ status: 'ok', journal: { state: 'committed' } });
  });
  it('a writer that holds the directory\'s lease already settles the leftover without waiting for it', async () => {
    writeFileSync(at('h.txt'), 'h0\n');
    expect(await dispatch(ctx, 'edit_file', { path: 'h.txt', oldString: 'h0', newString: 'h1' })).toMatchObject({ status: 'ok' });
    const journal = randomUUID();
    writeFileSync(at(backupName(journal, 0, sha('h2\n'))), 'h1\n');
    writeFileSync(at('h.txt'), 'h2\n');
    const row = (await latestBindingsUnder(testDb.db, root)).find((r) => r.path === 'h.txt')!;
    const opened = OpenedFiles.open(root, [{ path: 'h.txt', create: false }]);
    if (opened.kind !== 'opened') throw new Error('h.txt did not open');
    const lease = await ctx.leases.acquire(opened.files.leaseKeys());
    try {
      expect(await settleBeforeIntake(ctx, row, true)).toBe(true);
    } finally {
      await lease!.release();
      opened.files.close();
    }
    expect(readFileSync(at('h.txt'), 'utf8')).toBe('h1\n');
    expect((await loadJournal(testDb.db, journal)).state).toMatchObject({ state: 'rolled_back', failed: [{ outcome: 'restored' }] });
  });
});
