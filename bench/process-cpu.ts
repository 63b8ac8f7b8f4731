import { readdirSync, readFileSync } from 'node:fs';

/** user+system CPU of a process in ms, from /proc (Linux, clock ticks of 10 ms); NaN elsewhere. */
export function processCpuMs(pid: number | null | undefined): number {
  if (!pid) return NaN;
  try {
    return cpuOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return NaN;
  }
}

/** CPU (ms) of every process named `postgres` on this machine (the local server), by pid. */
function postgresProcesses(): Map<string, number> {
  const found = new Map<string, number>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return found;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.includes('(postgres)')) found.set(pid, cpuOfStat(stat));
    } catch {
      // the process ended between readdir and read
    }
  }
  return found;
}

/**
 * A stopwatch for the local PostgreSQL server's CPU (postmaster, backends, WAL writer, checkpointer):
 * the returned function gives the ms used since, summed over the processes alive at its call. A
 * backend that exits inside the window takes its share with it (an undercount, never negative).
 */
export function postgresCpuSince(): () => number {
  const before = postgresProcesses();
  return () => {
    const now = postgresProcesses();
    if (!now.size) return NaN;
    let total = 0;
    for (const [pid, ms] of now) total += ms - (before.get(pid) ?? 0);
    return total;
  };
}

function cpuOfStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime (fields 14, 15; USER_HZ = 100)
}
