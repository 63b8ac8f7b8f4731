import { execFileSync } from 'node:child_process';

/** Whether `pid` still runs, as `ps` sees it (a zombie has finished). */
export function running(pid: number): boolean {
  try {
    return !execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim().startsWith('Z');
  } catch {
    return false; // ps exits 1 when no such process exists
  }
}

/** Polls `check` until it holds, failing after `ms`. */
export async function waitFor(check: () => boolean, ms = 10_000, everyMs = 10): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
