import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groupMembers } from './process-group';
import { DEFAULT_PROCESS_LIMITS, ProcessManager, type RunOutcome } from './process-manager';
import type { ManagedProcess } from './managed-process';
import { DirectLauncher, type ProcessLauncher } from './process-launcher';
import { SpawnerLauncher } from './spawner-launcher';
import { running, waitFor } from '../test-support/process-watch';

const node = (script: string) => ({ argv: [process.execPath, '-e', script] });
/** Lines "00000000\n", "00000001\n", …: byte offset o holds the character LINES.charAt(o). */
const line = (i: number) => `${String(i).padStart(8, '0')}\n`;
const lines = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => line(from + k)).join('');

const launchers: [string, () => ProcessLauncher][] = [
  ['forked by this process', () => new DirectLauncher(process.env)],
  ['forked by the spawner', () => new SpawnerLauncher()],
];

describe.each(launchers)('ProcessManager (real processes, %s)', (_name, launcher) => {
  let dir: string;
  let manager: ProcessManager;
  /** The run's process once its start has been answered. */
  const started = async (id: string): Promise<ManagedProcess> => {
    await waitFor(() => manager.get(id) !== undefined);
    return manager.get(id)!;
  };

  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'palimpsest-processes-')));
    manager = new ProcessManager(dir, DEFAULT_PROCESS_LIMITS, launcher());
  });
  afterEach(async () => {
    await manager.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs at the workspace root with stdin closed, and answers stdout, stderr and the exit code', async () => {
    const outcome = (await manager.run('r1', node('process.stdout.write(process.cwd()); process.stderr.write("e"); process.exit(3)'), 10_000)) as RunOutcome;
    expect(outcome).toMatchObject({ stdout: dir, stderr: 'e', truncated: false, timedOut: false, exit: { code: 3, signal: null } });
    const cat = (await manager.run('r2', { argv: ['cat'] }, 10_000)) as RunOutcome;
    expect(cat).toMatchObject({ stdout: '', timedOut: false, exit: { code: 0 } });
  });

  it("kills the whole group at the timeout: sh -c 'sleep 100 & sleep 100' leaves no survivor", async () => {
    const pending = manager.run('t1', { shell: 'sleep 100 & sleep 100' }, 1_000);
    const leader = await started('t1');
    await waitFor(() => groupMembers(leader.pid).length >= 2);
    const members = groupMembers(leader.pid);
    expect(members).toContain(leader.pid);
    const outcome = (await pending) as RunOutcome;
    expect(outcome.timedOut).toBe(true);
    expect(outcome.exit.code).toBeNull();
    expect(outcome.exit.signal).toBe('SIGTERM');
    expect(outcome.exit.durationMs).toBeLessThan(1_000 + 2_000 + 1_000);
    expect(groupMembers(leader.pid)).toEqual([]);
    for (const pid of members) expect(running(pid)).toBe(false);
  });

  it('SIGKILLs a group that ignores SIGTERM within the grace', async () => {
    const pending = manager.run('t2', { shell: "trap '' TERM; sleep 100 & trap '' TERM; sleep 100" }, 1_000);
    const leader = await started('t2');
    await waitFor(() => groupMembers(leader.pid).length >= 2);
    const members = groupMembers(leader.pid);
    const outcome = (await pending) as RunOutcome;
    expect(outcome.timedOut).toBe(true);
    expect(outcome.exit.durationMs).toBeLessThan(1_000 + 2_000 + 1_500);
    for (const pid of members) expect(running(pid)).toBe(false);
  });

  it('refuses the ninth live process, and takes one again once a slot is free', async () => {
    const live: ManagedProcess[] = [];
    for (let i = 0; i < DEFAULT_PROCESS_LIMITS.maxProcesses; i++) {
      const s = await manager.start(`p${i}`, { argv: ['sleep', '100'] }, true);
      if (!s.ok) throw new Error(`process ${i} refused`);
      live.push(s.process);
    }
    expect(await manager.start('p8', { argv: ['sleep', '100'] }, true)).toEqual({ ok: false, reason: 'too_many_processes', live: 8 });
    expect(await manager.run('p8r', { argv: ['true'] }, 5_000)).toMatchObject({ ok: false, reason: 'too_many_processes' });
    await live[0].kill();
    expect((await manager.start('p9', { argv: ['sleep', '100'] }, true)).ok).toBe(true);
    const pids = [...live.map((p) => p.pid), manager.get('p9')!.pid];
    await manager.stop();
    for (const pid of pids) expect(running(pid)).toBe(false);
  });

  it('reads a chatty process by cursor: skipped says what the ring overtook, chunks stay within the limit', async () => {
    const total = 200_000; // 1.8 MB of numbered lines
    const s = await manager.start('c1', node(`const l=(i)=>String(i).padStart(8,'0')+'\\n';let s='';for(let i=0;i<${total};i++)s+=l(i);process.stdout.write(s)`), false);
    if (!s.ok) throw new Error('refused');
    await s.process.finished;
    const written = total * 9;
    const first = await manager.read(s.process, 0, 0);
    expect(first.skippedBytes).toBe(written - DEFAULT_PROCESS_LIMITS.ringBytes);
    expect(Buffer.byteLength(first.chunk)).toBe(DEFAULT_PROCESS_LIMITS.chunkBytes);
    const from = first.skippedBytes;
    const expected = lines(Math.floor(from / 9), total).slice(from % 9);
    expect(first.chunk).toBe(expected.slice(0, first.chunk.length));
    let cursor = first.nextCursor;
    let text = first.chunk;
    for (;;) {
      const next = await manager.read(s.process, cursor, 0);
      expect(next.skippedBytes).toBe(0);
      expect(Buffer.byteLength(next.chunk)).toBeLessThanOrEqual(DEFAULT_PROCESS_LIMITS.chunkBytes);
      text += next.chunk;
      if (next.nextCursor === cursor) break;
      cursor = next.nextCursor;
    }
    expect(cursor).toBe(written);
    expect(text).toBe(expected);
    expect((await manager.read(s.process, cursor, 0)).exit).toMatchObject({ code: 0 });
  });

  it('cuts run output over the limit from the front, keeping the last bytes', async () => {
    const outcome = (await manager.run('o1', node(`const l=(i)=>String(i).padStart(8,'0')+'\\n';let s='';for(let i=0;i<40000;i++)s+=l(i);process.stdout.write(s)`), 10_000)) as RunOutcome;
    expect(outcome.truncated).toBe(true);
    expect(Buffer.byteLength(outcome.stdout)).toBe(DEFAULT_PROCESS_LIMITS.outputBytes);
    expect(outcome.stdout).toBe(lines(0, 40000).slice(-DEFAULT_PROCESS_LIMITS.outputBytes));
  });

  it('waits (bounded) for new output, takes input, and reports the exit', async () => {
    const s = await manager.start('i1', { shell: 'read x; echo "got $x"' }, true);
    if (!s.ok) throw new Error('refused');
    const began = Date.now();
    const idle = await manager.read(s.process, 0, 300);
    expect(Date.now() - began).toBeGreaterThanOrEqual(250);
    expect(idle).toMatchObject({ chunk: '', nextCursor: 0, running: true, exit: null });
    expect(await s.process.write(Buffer.from('hi\n'))).toBe(3);
    const got = await manager.read(s.process, 0, 5_000);
    expect(got.chunk).toBe('got hi\n');
    await s.process.finished;
    expect(await manager.read(s.process, got.nextCursor, 5_000)).toMatchObject({ chunk: '', running: false, exit: { code: 0 } });
    expect(await s.process.write(Buffer.from('late'))).toBeNull();
  });

  it('kill stops the whole group of a started process; stop() stops every live group', async () => {
    const a = await manager.start('k1', { shell: 'sleep 100 & sleep 100' }, true);
    const b = await manager.start('k2', { shell: 'sleep 100 & sleep 100' }, true);
    if (!a.ok || !b.ok) throw new Error('refused');
    await waitFor(() => groupMembers(a.process.pid).length >= 2 && groupMembers(b.process.pid).length >= 2);
    const members = [...groupMembers(a.process.pid), ...groupMembers(b.process.pid)];
    const exit = await a.process.kill();
    expect(exit.signal).toBe('SIGTERM');
    expect(a.process.killedBy).toBe('terminated');
    await manager.stop();
    for (const pid of members) expect(running(pid)).toBe(false);
  });
});
