import { CRASH_POINT_ENV } from '@palimpsest/workspace/crash-point';

/**
 * The projector's opt-in crash point for its crash tests: `PALIMPSEST_CRASH_POINT=projector.after_apply`
 * ends the process with SIGKILL after a batch was applied and before its transaction (with the
 * checkpoint) commits; `projector.after_apply@N` at the Nth batch of the process, so a test that kills
 * it in a loop still sees progress. Unset, or naming another point, it does nothing (read once).
 */
export const PROJECTOR_CRASH_POINT = 'projector.after_apply';

const armed = parse(process.env[CRASH_POINT_ENV]);
let hits = 0;

function parse(value: string | undefined): number | null {
  const match = /^projector\.after_apply(?:@(\d+))?$/.exec(value ?? '');
  return match ? Number(match[1] ?? 1) : null;
}

export function projectorCrashPoint(): void {
  if (armed === null) return;
  hits += 1;
  if (hits >= armed) process.kill(process.pid, 'SIGKILL');
}
