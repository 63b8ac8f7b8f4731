import { readdirSync, readFileSync } from 'node:fs';
import { PROCESS_LIMITS } from './process-limits';

/**
 * A spawned command leads its own process group (spawned detached), so everything it starts — children,
 * grandchildren, a shell's background jobs — shares its pgid and is signalled as one with kill(-pgid).
 */

const POLL_MS = 20;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Signal the whole group; false when no process of it is left to signal. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** The pids of the group's members that still run (a zombie has finished: it is not counted). */
export function groupMembers(pgid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return signalGroup(pgid, 0) ? [pgid] : [];
  }
  const members: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(entry);
    if (stat && stat.pgid === pgid && stat.state !== 'Z') members.push(Number(entry));
  }
  return members;
}

/** /proc/<pid>/stat's state and pgid; the command name in parentheses may itself hold spaces or ')'. */
function statOf(pid: string): { state: string; pgid: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], pgid: Number(fields[2]) };
  } catch {
    return null;
  }
}

/** kill(-pgid, 0) answers ESRCH at once for an empty group; only a group that answers is scanned (it may hold only zombies). */
export const groupAlive = (pgid: number): boolean => signalGroup(pgid, 0) && groupMembers(pgid).length > 0;

async function waitGone(pgid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (groupAlive(pgid)) {
    if (Date.now() >= until) return false;
    await sleep(POLL_MS);
  }
  return true;
}

export type GroupKill = 'gone' | 'terminated' | 'killed';

/**
 * Stop the whole group: SIGTERM, then SIGKILL to whatever still runs after the grace (at most 2 s).
 * Resolves once no member runs: 'gone' (nothing was left), 'terminated' (SIGTERM sufficed) or 'killed'.
 */
export async function killGroup(pgid: number, graceMs: number = PROCESS_LIMITS.KILL_GRACE_MS): Promise<GroupKill> {
  if (!groupAlive(pgid)) return 'gone';
  signalGroup(pgid, 'SIGTERM');
  if (await waitGone(pgid, graceMs)) return 'terminated';
  signalGroup(pgid, 'SIGKILL');
  await waitGone(pgid, 5_000);
  return 'killed';
}

/** The same, at once and without waiting: for a process that is exiting (SIGKILL cannot be caught). */
export function killGroupNow(pgid: number): void {
  signalGroup(pgid, 'SIGKILL');
}

function readOr(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * Who a process is beyond its pid, which the kernel reuses: the boot and the process's start time in
 * clock ticks since boot (/proc/<pid>/stat, field 22). Null where /proc is not there to say.
 */
export function processIdentity(pid: number): string | null {
  const boot = currentBoot();
  const stat = readOr(`/proc/${pid}/stat`);
  if (!boot || !stat) return null;
  return `${boot}:${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
}

let bootId: string | null | undefined;

/** The boot a process identity was taken in (its first part); read once, a boot does not change under a process. */
export function currentBoot(): string | null {
  if (bootId === undefined) bootId = readOr('/proc/sys/kernel/random/boot_id');
  return bootId;
}

/**
 * The groups of the processes whose environment holds `name=value` (a run's marker: every process of a
 * run inherits it), for a restart settling a run that crashed before its start was recorded. Processes
 * of other users (unreadable environment) are not ours and are passed over.
 */
export function groupsMarked(name: string, value: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const needle = Buffer.from(`\0${name}=${value}\0`);
  const groups = new Set<number>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let environ: Buffer;
    try {
      environ = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${entry}/environ`), Buffer.from([0])]);
    } catch {
      continue;
    }
    if (!environ.includes(needle)) continue;
    const stat = statOf(entry);
    if (stat && stat.state !== 'Z') groups.add(stat.pgid);
  }
  return [...groups];
}
