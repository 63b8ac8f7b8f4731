import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CRASH_POINT_ENV } from '@palimpsest/testing/crash-point';
import { isolatedStore, runCli } from '../support/cli-process';
import { callCli, checkpointCount, eventLog, journalsOf, settleKilledClient, sha256, strayFiles, withServe } from '../support/workspace-process';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

/** Another real process writes the file: one write, or a loop until SIGTERM (it stops between two writes). */
function writer(path: string, versions: string[], loop: boolean) {
  const script = `
    const fs = require('node:fs');
    const [path, loop, ...versions] = process.argv.slice(1);
    let k = 0, stop = false;
    process.on('SIGTERM', () => (stop = true));
    const tick = () => {
      if (stop) process.exit(0);
      fs.writeFileSync(path, versions[k % versions.length].replace('#', String(k)));
      k++;
      if (loop === 'loop') setImmediate(tick);
    };
    tick();`;
  const child = spawn(process.execPath, ['-e', script, path, loop ? 'loop' : 'once', ...versions], { stdio: 'ignore' });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { exited, stop: () => (child.kill('SIGTERM'), exited) };
}

describe(`palimpsest_save never overwrites a file another process edited, on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const file = (path: string) => readFileSync(join(dir, path)).toString();

  async function imported(path: string, bytes: string, next: string): Promise<string> {
    writeFileSync(join(dir, path), bytes);
    return withServe(env, async (call) => {
      const id = (await call('palimpsest_initialize_target', { filename: path, from_workspace: true })).target_file_id;
      const replaced = await call('palimpsest_submit_replacement', { target_file_id: id, intent: 'rewrite', expected_target_version: 0, replacement: next });
      expect(replaced.status).toBe('accepted');
      return id as string;
    });
  }

  beforeAll(async () => {
    store = await isolatedStore();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-save-drift-'));
    env = { ...store.env, PALIMPSEST_WORKSPACE_ROOT: dir, PALIMPSEST_WORKSPACE_PUBLISH: 'on_save', [CRASH_POINT_ENV]: '' }; // the save publishes
    expect((await runCli(['migrate'], { env })).code).toBe(0);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await store.dispose();
  });

  it('an edit before the publication: external_disk_drift, the file intact, no checkpoint, no journal', async () => {
    const id = await imported('before.md', 'b0\n', 'b1\n');
    expect(await writer(join(dir, 'before.md'), ['edited elsewhere\n'], false).exited).toBe(0);
    const r = await callCli(env, 'palimpsest_save', { target_file_id: id, sync_workspace: true });
    expect(r.json).toMatchObject({
      status: 'rejected', failure_reason: 'external_disk_drift', retryable: 'after_refresh',
      diagnostic: { path: 'before.md', expected_sha256: sha256('b0\n'), observed_sha256: sha256('edited elsewhere\n'), journal_id: null },
    });
    expect(file('before.md')).toBe('edited elsewhere\n');
    const log = await eventLog(env);
    expect(checkpointCount(log, id)).toBe(0);
    expect(journalsOf(log, id)).toEqual([]);
  }, 60_000);

  it('an edit between staging and the second check: left pending_reconcile and never overwritten, until a refresh takes it in', async () => {
    const id = await imported('during.md', 'd0\n', 'd1\n');
    const killed = await runCli(['call', 'palimpsest_save', '--args', JSON.stringify({ target_file_id: id, sync_workspace: true })], { env: { ...env, [CRASH_POINT_ENV]: 'publication.after_stage' } });
    expect(killed.signal).toBe('SIGKILL');
    await settleKilledClient(env);
    expect(strayFiles(dir)).toHaveLength(1); // the staged bytes, beside the untouched file
    expect(await writer(join(dir, 'during.md'), ['edited during the publication\n'], false).exited).toBe(0);

    const status = await callCli(env, 'palimpsest_workspace_status', { path_prefix: 'during.md' });
    const [journal] = journalsOf(await eventLog(env), id);
    expect(status.json.files).toEqual([
      expect.objectContaining({ path: 'during.md', state: 'pending', journal: { id: journal!.journal_id, state: 'pending_reconcile' }, observed_sha256: sha256('edited during the publication\n') }),
    ]);
    expect(journal!.events.map((e) => e.event_type)).toEqual(['PublicationStarted', 'PublicationFailed']);
    expect(journal!.events[1]!.data).toMatchObject({ state: 'pending_reconcile', reason: 'recovery_required', reconciled: true, files: [{ outcome: 'unknown', disk_sha256: sha256('edited during the publication\n') }] });
    expect(file('during.md')).toBe('edited during the publication\n');
    expect(strayFiles(dir)).toEqual([]);

    const refused = await callCli(env, 'palimpsest_save', { target_file_id: id, sync_workspace: true });
    expect(refused.json).toMatchObject({ status: 'rejected', failure_reason: 'recovery_required', diagnostic: { journals: [{ journal_id: journal!.journal_id, paths: ['during.md'] }] } });
    expect(file('during.md')).toBe('edited during the publication\n');
    expect(checkpointCount(await eventLog(env), id)).toBe(0);

    const refreshed = await callCli(env, 'palimpsest_workspace_refresh', { target_file_id: id });
    expect(refreshed.json).toMatchObject({ status: 'refreshed', version: 2, disk_sha256: sha256('edited during the publication\n') });
    const closed = journalsOf(await eventLog(env), id)[0]!.events.map((e) => e.event_type);
    expect(closed).toEqual(['PublicationStarted', 'PublicationFailed', 'PublicationResolved']);
    await withServe(env, async (call) => {
      const after = await call('palimpsest_workspace_status', { path_prefix: 'during.md' });
      expect(after.files).toEqual([expect.objectContaining({ state: 'in_sync', journal: null })]);
      expect((await call('palimpsest_submit_replacement', { target_file_id: id, intent: 'rewrite', expected_target_version: 2, replacement: 'd3\n' })).status).toBe('accepted');
      expect(await call('palimpsest_save', { target_file_id: id, sync_workspace: true })).toMatchObject({ status: 'saved', workspace_sync: { disk_sha256: sha256('d3\n') } });
    });
    expect(file('during.md')).toBe('d3\n');
  }, 120_000);

  /**
   * A writer that does not take the lease rewrites the file in a tight loop, alternating the bytes the
   * target last published (so some saves pass both checks) and its own. Each save publishes or answers
   * external_disk_drift; a drift found by the second check is rolled back with nothing installed. What
   * remains (seed 003): a non-cooperating writer can still write between the final check and the rename,
   * and that write is then replaced by the publication (or lands in the replaced inode) without notice.
   */
  it('a concurrent writer in a tight loop: each save publishes or answers external_disk_drift, and a refused one installs nothing', async () => {
    const id = await imported('race.md', 'r0\n', 'r1\n');
    const loop = writer(join(dir, 'race.md'), ['r0\n', 'writer #\n'], true);
    const answers: Record<string, any>[] = [];
    try {
      for (let i = 0; i < 6; i++) answers.push((await callCli(env, 'palimpsest_save', { target_file_id: id, sync_workspace: true })).json);
    } finally {
      expect(await loop.stop()).toBe(0);
    }
    const saved = answers.filter((a) => a.status === 'saved');
    const drifted = answers.filter((a) => a.failure_reason === 'external_disk_drift');
    expect(saved.length + drifted.length).toBe(answers.length);
    expect(saved.length).toBeLessThanOrEqual(1); // once r1 is published the writer's bytes never match again
    expect(drifted.length).toBeGreaterThan(0);
    for (const d of drifted) expect(d.diagnostic.observed_sha256).not.toBe(d.diagnostic.expected_sha256);

    const log = await eventLog(env);
    const journals = journalsOf(log, id);
    for (const j of journals) {
      const [, outcome] = j.events;
      if (outcome!.event_type === 'PublicationCompleted') expect(saved.map((s) => s.workspace_sync.journal.id)).toContain(j.journal_id);
      else expect(outcome!.data).toMatchObject({ state: 'rolled_back', reason: 'external_disk_drift', reconciled: false, files: [{ outcome: 'not_applied' }] });
    }
    const secondCheck = drifted.filter((d) => d.diagnostic.journal_id !== null).map((d) => d.diagnostic.journal_id);
    expect(journals.map((j) => j.journal_id).sort()).toEqual([...secondCheck, ...saved.map((s) => s.workspace_sync.journal.id)].sort());
    expect(checkpointCount(log, id)).toBe(saved.length);
    expect(strayFiles(dir)).toEqual([]);
    expect(['r0\n', 'r1\n']).toContain(file('race.md').replace(/^writer \d+\n$/, 'r0\n'));
  }, 120_000);
});
