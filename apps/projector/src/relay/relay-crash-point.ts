/**
 * Opt-in crash points for the relay's crash tests: `relayCrashPoint(name)` ends the process with SIGKILL
 * (no handlers, no flush) when PALIMPSEST_CRASH_POINT names that point; unset or naming another point,
 * it does nothing. Read once at load, as libs/workspace/src/crash-point.ts does for the publication.
 */
export const RELAY_CRASH_POINTS = [
  /** Half of a batch's publishes acknowledged, the rest in flight. */
  'relay.mid_publish',
  /** Every publish of the batch acknowledged, the checkpoint not yet moved. */
  'relay.after_acks',
] as const;

export type RelayCrashPoint = (typeof RELAY_CRASH_POINTS)[number];

const armed = process.env.PALIMPSEST_CRASH_POINT;

export function relayCrashPoint(name: RelayCrashPoint): void {
  if (armed === name) process.kill(process.pid, 'SIGKILL');
}
