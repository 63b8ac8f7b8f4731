import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CRASH_POINT_ENV } from '@palimpsest/testing/crash-point';
import { runCli } from '../../support/cli-process';
import type { LoggedEvent } from '../../support/crash-recovery';
import { callCli, eventLog, journalsOf, sha256, strayFiles, withServe, crashWorkspace } from '../../support/workspace-process';

const accepted = (log: LoggedEvent[], id: string) => log.filter((e) => e.stream_id === `target-${id}` && e.event_type === 'ProposalAccepted').length;

/**
 * Two processes on one PostgreSQL database and one workspace (an embedded store has one process): a gateway
 * keeps running while another process is killed between installing an edit_file and its one COMMIT.
 */
describe('edit_file killed mid-install beside a running gateway, on postgres', () => {
  let dispose: () => Promise<void>;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    ({ dir, env, dispose } = await crashWorkspace('palimpsest-e2e-edit-crash-gw-'));
  });
  afterAll(async () => {
    await dispose();
  });

  // Two gateways: one is killed mid-install while the other keeps running; the survivor's next write of the
  // file takes the lease, finds the file is not its baseline and settles the leftover before it publishes.
  it('a running gateway settles what a killed one left under the lease, then publishes once', async () => {
    const live = () => readFileSync(join(dir, 'live.md'), 'utf8');
    writeFileSync(join(dir, 'live.md'), 'alpha\nend\n');
    const edit = { path: 'live.md', oldString: 'end', newString: 'the end' };
    const liveId = await withServe(env, async (call) => {
      const bound = await call('edit_file', { path: 'live.md', oldString: 'alpha', newString: 'Alpha' });
      expect(bound).toMatchObject({ status: 'ok' });
      const killed = await callCli(env, 'edit_file', edit, { [CRASH_POINT_ENV]: 'publication.before_outcome' }).catch((e) => e);
      expect(killed.signal).toBe('SIGKILL');
      expect(live()).toBe('Alpha\nthe end\n');
      expect(strayFiles(dir).length).toBe(1);
      const again = await call('edit_file', edit);
      expect(again).toMatchObject({ status: 'ok', replacements: 1, journal: { state: 'committed' } });
      return bound.target_file_id as string;
    });
    expect(live()).toBe('Alpha\nthe end\n');
    expect(strayFiles(dir)).toEqual([]);
    const log = await eventLog(env);
    const journals = journalsOf(log, liveId).slice(-2);
    expect(journals.map((j) => j.events.map((e) => e.event_type))).toEqual([
      ['PublicationStarted', 'PublicationFailed'],
      ['PublicationStarted', 'PublicationCompleted'],
    ]);
    expect(journals[0]!.events[1]!.data).toMatchObject({ state: 'rolled_back', reconciled: true, files: [{ outcome: 'restored', disk_sha256: sha256('Alpha\nend\n') }] });
    expect(accepted(log, liveId)).toBe(2); // the binding edit and this one: nothing taken in as an external change
    expect(log.some((e) => e.stream_id === `target-${liveId}` && e.event_type === 'WorkspaceFileRefreshed')).toBe(false);
  }, 120_000);

  it('rebuilds every read model, the recovered journal included, to what it replaced', async () => {
    const rebuild = await runCli(['projections', 'rebuild', '--no-progress'], { env });
    expect(JSON.parse(rebuild.stdout)).toMatchObject({ equal: true });
  }, 60_000);
});
