import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groupMembers, groupsMarked } from './process-group';
import { DirectLauncher, RUN_MARKER_VARIABLE } from './process-launcher';
import { DEFAULT_PROCESS_LIMITS, ProcessManager, type RunOutcome } from './process-manager';
import { SpawnerLauncher } from './spawner-launcher';
import { running, waitFor } from '../test-support/process-watch';

describe('commands forked by the spawner (real processes)', () => {
  let dir: string;
  let launcher: SpawnerLauncher;
  let manager: ProcessManager;

  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'palimpsest-spawner-')));
    launcher = new SpawnerLauncher();
    manager = new ProcessManager(dir, DEFAULT_PROCESS_LIMITS, launcher);
  });
  afterEach(async () => {
    await manager.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts the spawner with the first command, and stops it with the manager', async () => {
    expect(launcher.spawnerPid).toBeNull();
    expect(await manager.run('r1', { argv: ['true'] }, 5_000)).toMatchObject({ exit: { code: 0 } });
    const spawner = launcher.spawnerPid!;
    expect(running(spawner)).toBe(true);
    await manager.stop();
    expect(launcher.spawnerPid).toBeNull();
    await waitFor(() => !running(spawner));
  });

  it('when the spawner dies, its running commands are stopped and reported lost; the next command starts a new spawner', async () => {
    const s = await manager.start('a', { shell: 'sleep 100 & sleep 100' }, true);
    if (!s.ok) throw new Error('refused');
    await waitFor(() => groupMembers(s.process.pid).length >= 2);
    const members = groupMembers(s.process.pid);
    const first = launcher.spawnerPid!;
    process.kill(first, 'SIGKILL');
    const exit = await s.process.finished;
    expect(exit).toMatchObject({ code: null, signal: null, lost: true });
    expect(s.process.groupStop).toMatch(/terminated|killed/);
    for (const pid of members) expect(running(pid)).toBe(false);
    const next = (await manager.run('b', { argv: ['sh', '-c', 'echo ok'] }, 5_000)) as RunOutcome;
    expect(next).toMatchObject({ stdout: 'ok\n', exit: { code: 0 } });
    expect(launcher.spawnerPid).not.toBe(first);
  });

  it('answers a program that does not exist as a failed start, with the reason on stderr', async () => {
    const outcome = (await manager.run('n1', { argv: ['palimpsest-no-such-program'] }, 5_000)) as RunOutcome;
    expect(manager.get('n1')!.pid).toBe(-1);
    expect(outcome.exit.code).toBe(127);
    expect(outcome.stderr).toContain('ENOENT');
  });
});

describe.each([
  ['forked by this process', () => new DirectLauncher(process.env)],
  ['forked by the spawner', () => new SpawnerLauncher()],
])('the run marker (%s)', (_name, launcher) => {
  it("every process of a run carries the run's id, and its group is found by it", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'palimpsest-marker-')));
    const manager = new ProcessManager(dir, DEFAULT_PROCESS_LIMITS, launcher());
    try {
      const echoed = (await manager.run('run-1', { shell: `echo $${RUN_MARKER_VARIABLE}` }, 5_000)) as RunOutcome;
      expect(echoed.stdout).toBe('run-1\n');
      const s = await manager.start('run-2', { shell: 'sleep 100 & sleep 100' }, false);
      if (!s.ok) throw new Error('refused');
      await waitFor(() => groupMembers(s.process.pid).length >= 2);
      expect(groupsMarked(RUN_MARKER_VARIABLE, 'run-2')).toEqual([s.process.pid]);
      expect(groupsMarked(RUN_MARKER_VARIABLE, 'run-')).toEqual([]);
      // No shell in between: PWD is what the environment says, and it names the command's directory, not the service's.
      expect(((await manager.run('run-3', { argv: ['printenv', 'PWD'] }, 5_000)) as RunOutcome).stdout).toBe(`${dir}\n`);
    } finally {
      await manager.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
