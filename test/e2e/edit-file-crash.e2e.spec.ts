import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CRASH_POINT_ENV, type CrashPointName } from '@palimpsest/testing/crash-point';
import { runCli } from '../support/cli-process';
import type { LoggedEvent } from '../support/crash-recovery';
import { callCli, eventLog, journalsOf, settleKilledClient, sha256, strayFiles, withServe, crashWorkspace } from '../support/workspace-process';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

/**
 * edit_file (and write_file) of a bound file commits once: its journal's PublicationStarted, the accepted
 * change and PublicationCompleted in one transaction, the file installed before that COMMIT. A real CLI
 * process is killed (SIGKILL) at each point of that path. Before the COMMIT the log holds nothing of the
 * edit, and the next process finds the backup the kill left (its name carries the journal and the staged
 * bytes' hash), puts the old bytes back when the file holds the new ones, and records the journal with its
 * rollback. After the COMMIT the edit stands and only the backup is removed. Either way the file and the
 * record agree, and the same edit sent again lands exactly once.
 */
const POINTS: { point: CrashPointName; installed: boolean; committed: boolean; strays: number }[] = [
  { point: 'publication.after_stage', installed: false, committed: false, strays: 2 },
  { point: 'publication.after_install.1', installed: true, committed: false, strays: 1 },
  { point: 'publication.after_fsync', installed: true, committed: false, strays: 1 },
  { point: 'publication.before_outcome', installed: true, committed: false, strays: 1 },
  { point: 'publication.before_cleanup', installed: true, committed: true, strays: 1 },
];

const accepted = (log: LoggedEvent[], id: string) => log.filter((e) => e.stream_id === `target-${id}` && e.event_type === 'ProposalAccepted').length;

describe(`edit_file killed at every point of its one-commit publication, on ${backend}`, () => {
  let dispose: () => Promise<void>;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let id: string;
  let n = 0;
  const file = () => readFileSync(join(dir, 'crash.md'), 'utf8');

  beforeAll(async () => {
    ({ dir, env, dispose } = await crashWorkspace('palimpsest-e2e-edit-crash-'));
    writeFileSync(join(dir, 'crash.md'), 'title\nmark-0\nend\n');
    const bound = await callCli(env, 'edit_file', { path: 'crash.md', oldString: 'title', newString: 'Title' });
    expect(bound.json).toMatchObject({ status: 'ok', version: 1 });
    id = bound.json.target_file_id;
  });
  afterAll(async () => {
    await dispose();
  });

  it.each(POINTS)('$point: the file and the record agree after restart, and the edit sent again lands once', async ({ point, installed, committed, strays }) => {
    const old = file();
    const edit = { path: 'crash.md', oldString: `mark-${n}`, newString: `mark-${n + 1}` };
    const next = old.replace(`mark-${n}`, `mark-${n + 1}`);
    const before = await eventLog(env);
    const journalsBefore = journalsOf(before, id).length;
    const acceptedBefore = accepted(before, id);

    const killed = await callCli(env, 'edit_file', edit, { [CRASH_POINT_ENV]: point }).catch((e) => e);
    expect({ signal: killed.signal, code: killed.code }).toEqual({ signal: 'SIGKILL', code: null });
    await settleKilledClient(env);
    expect(file()).toBe(installed ? next : old);
    expect(strayFiles(dir).length).toBe(strays);
    const atKill = await eventLog(env);
    // One durable commit: before it nothing of the edit is on the record, after it all of it.
    expect(journalsOf(atKill, id).length).toBe(journalsBefore + (committed ? 1 : 0));
    expect(accepted(atKill, id)).toBe(acceptedBefore + (committed ? 1 : 0));

    // A fresh process settles what the kill left before it reads.
    const status = await callCli(env, 'palimpsest_workspace_status', { path_prefix: 'crash.md' });
    expect(status.json.files).toEqual([expect.objectContaining({ path: 'crash.md', state: 'in_sync', journal: null, disk_sha256: sha256(committed ? next : old) })]);
    expect(file()).toBe(committed ? next : old);
    expect(strayFiles(dir)).toEqual([]);
    const settled = await eventLog(env);
    const journals = journalsOf(settled, id);
    expect(journals.length).toBe(journalsBefore + 1);
    const crashed = journals[journals.length - 1]!;
    expect(crashed.events.map((e) => e.event_type)).toEqual(['PublicationStarted', committed ? 'PublicationCompleted' : 'PublicationFailed']);
    if (!committed) {
      expect(crashed.events[1]!.data).toMatchObject({
        state: 'rolled_back', reason: 'interrupted', reconciled: true,
        files: [{ path: 'crash.md', disk_sha256: sha256(old), outcome: installed ? 'restored' : 'not_applied' }],
      });
      expect(crashed.events[0]!.data.files).toEqual([expect.objectContaining({ path: 'crash.md', target_id: id, staged_sha256: sha256(next), replaced_sha256: sha256(old) })]);
    }
    expect(accepted(settled, id)).toBe(acceptedBefore + (committed ? 1 : 0));

    // The same edit sent again: applied once in all.
    await withServe(env, async (call) => {
      const again = await call('edit_file', edit);
      if (committed) expect(again).toMatchObject({ status: 'rejected' });
      else expect(again).toMatchObject({ status: 'ok', replacements: 1, journal: { state: 'committed' } });
      expect(await call('palimpsest_replay', { target_file_id: id })).toMatchObject({ status: 'success', materialized_state_matches: true });
    });
    expect(file()).toBe(next);
    expect(strayFiles(dir)).toEqual([]);
    expect(accepted(await eventLog(env), id)).toBe(acceptedBefore + 1);
    n++;
  }, 120_000);

  it('write_file over the bound file, killed before its commit, is rolled back the same way', async () => {
    const old = file();
    const killed = await callCli(env, 'write_file', { path: 'crash.md', content: 'rewritten\n' }, { [CRASH_POINT_ENV]: 'publication.before_outcome' }).catch((e) => e);
    expect(killed.signal).toBe('SIGKILL');
    await settleKilledClient(env);
    expect(file()).toBe('rewritten\n');
    const status = await callCli(env, 'palimpsest_workspace_status', { path_prefix: 'crash.md' });
    expect(status.json.files).toEqual([expect.objectContaining({ state: 'in_sync', journal: null, disk_sha256: sha256(old) })]);
    expect(file()).toBe(old);
    expect(strayFiles(dir)).toEqual([]);
    const written = await callCli(env, 'write_file', { path: 'crash.md', content: 'rewritten\n' });
    expect(written.json).toMatchObject({ status: 'ok' });
    expect(file()).toBe('rewritten\n');
  }, 120_000);

  it('rebuilds every read model, the recovered journals included, to what it replaced', async () => {
    const rebuild = await runCli(['projections', 'rebuild', '--no-progress'], { env });
    expect(JSON.parse(rebuild.stdout)).toMatchObject({ equal: true });
  }, 60_000);
});
