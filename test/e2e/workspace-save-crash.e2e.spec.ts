import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CRASH_POINT_ENV, type CrashPointName } from '@palimpsest/testing/crash-point';
import { isolatedStore, runCli } from '../support/cli-process';
import { callCli, checkpointCount, eventLog, journalsOf, settleKilledClient, sha256, strayFiles, withServe } from '../support/workspace-process';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

/**
 * Issue 14 "crash points" for palimpsest_save with sync_workspace: a real CLI process is killed by SIGKILL
 * at each point a save passes (after_install.2 needs a second file: candidate apply covers it). A save's
 * journal is settled forward (recovery-plan.ts): once the new bytes are installed it is committed by
 * reconciliation, before that it is rolled back. The checkpoint commits with PublicationCompleted, so a
 * killed save never leaves one; the resent save leaves exactly one.
 */
const POINTS: { point: CrashPointName; installed: boolean; staged: boolean }[] = [
  { point: 'publication.after_started', installed: false, staged: false },
  { point: 'publication.after_stage', installed: false, staged: true },
  { point: 'publication.after_install.1', installed: true, staged: false },
  { point: 'publication.after_fsync', installed: true, staged: false },
  { point: 'publication.before_outcome', installed: true, staged: false },
];

describe(`palimpsest_save killed at every crash point of its publication, on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let id: string;
  let version = 0;
  let onDisk = 'version 0\n';
  const file = () => readFileSync(join(dir, 'crash.md'));

  beforeAll(async () => {
    store = await isolatedStore();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-save-crash-'));
    env = { ...store.env, PALIMPSEST_WORKSPACE_ROOT: dir, PALIMPSEST_WORKSPACE_PUBLISH: 'on_save', [CRASH_POINT_ENV]: '' }; // the save publishes
    expect((await runCli(['migrate'], { env })).code).toBe(0);
    writeFileSync(join(dir, 'crash.md'), onDisk);
    const created = await callCli(env, 'palimpsest_initialize_target', { filename: 'crash.md', from_workspace: true });
    expect(created.json.status).toBe('ok');
    id = created.json.target_file_id;
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await store.dispose();
  });

  it.each(POINTS)('$point: one whole version on disk, the journal settled, replay equal, the resent save publishes once', async ({ point, installed, staged }) => {
    const next = `version ${version + 1} (${point})\n`;
    const replaced = await callCli(env, 'palimpsest_submit_replacement', { target_file_id: id, intent: 'rewrite', expected_target_version: version, replacement: next });
    expect(replaced.json.status).toBe('accepted');
    version++;
    const before = await eventLog(env);
    const checkpoints = checkpointCount(before, id);
    const journalsBefore = journalsOf(before, id).length;

    const save = JSON.stringify({ target_file_id: id, sync_workspace: true });
    const killed = await runCli(['call', 'palimpsest_save', '--args', save], { env: { ...env, [CRASH_POINT_ENV]: point } });
    expect({ signal: killed.signal, code: killed.code, stdout: killed.stdout }).toEqual({ signal: 'SIGKILL', code: null, stdout: '' });
    await settleKilledClient(env);
    // As the kill left it: one of the two versions whole, and the staged file only where staging was the last step.
    expect(file().toString()).toBe(installed ? next : onDisk);
    expect(strayFiles(dir).length).toBe(staged ? 1 : 0);

    // A fresh process settles the journal at start-up, before it reads. A file left with the old text is
    // behind its target (pending) until the resent save publishes it.
    const status = await callCli(env, 'palimpsest_workspace_status', { path_prefix: 'crash.md' });
    expect(status.json.files).toEqual([
      expect.objectContaining({
        path: 'crash.md', state: installed ? 'in_sync' : 'pending', journal: null, version, disk_version: installed ? version : version - 1,
        disk_sha256: sha256(installed ? next : onDisk), observed_sha256: sha256(installed ? next : onDisk),
      }),
    ]);
    expect(file().toString()).toBe(installed ? next : onDisk);
    expect(strayFiles(dir)).toEqual([]);
    const settledLog = await eventLog(env);
    const journals = journalsOf(settledLog, id);
    expect(journals.length).toBe(journalsBefore + 1);
    const crashed = journals[journals.length - 1]!;
    const settled = crashed.events.map((e) => e.event_type);
    expect(settled).toEqual(['PublicationStarted', installed ? 'PublicationCompleted' : 'PublicationFailed']);
    const outcome = crashed.events[1]!.data;
    if (installed) expect(outcome).toMatchObject({ reconciled: true, files: [{ path: 'crash.md', disk_sha256: sha256(next), durability: 'confirmed' }] });
    else expect(outcome).toMatchObject({ reconciled: true, state: 'rolled_back', reason: 'interrupted', files: [{ path: 'crash.md', disk_sha256: sha256(onDisk), outcome: 'not_applied' }] });
    expect(checkpointCount(settledLog, id)).toBe(checkpoints); // the checkpoint commits with the outcome, which never did

    // The replay (what `palimpsest replay` dispatches) and the resent save, in one process.
    await withServe(env, async (call) => {
      expect(await call('palimpsest_replay', { target_file_id: id })).toMatchObject({ status: 'success', materialized_state_matches: true });
      const resent = await call('palimpsest_save', { target_file_id: id, sync_workspace: true });
      expect(resent).toMatchObject({ status: 'saved', workspace_sync: { synced_path: 'crash.md', disk_sha256: sha256(next), publication: 'installed', durability: 'confirmed', journal: { state: 'committed' } } });
    });
    expect(file().toString()).toBe(next);
    expect(strayFiles(dir)).toEqual([]);
    const after = await eventLog(env);
    expect(checkpointCount(after, id)).toBe(checkpoints + 1);
    expect(journalsOf(after, id).length).toBe(journalsBefore + 2);
    onDisk = next;
  }, 120_000);

  it('rebuilds every read model, the settled journals included, to what it replaced', async () => {
    const rebuild = await runCli(['projections', 'rebuild', '--no-progress'], { env });
    expect(JSON.parse(rebuild.stdout)).toMatchObject({ equal: true });
  }, 60_000);
});
