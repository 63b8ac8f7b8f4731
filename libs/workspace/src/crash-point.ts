/**
 * Opt-in crash points for the publication's crash tests (issue 14 "crash points"): `crashPoint(name)` ends
 * the process with SIGKILL, as a power cut or the OOM killer would (no handlers, no flush, no finally),
 * when PALIMPSEST_CRASH_POINT names that point. Unset, or naming another point, it does nothing. The
 * variable is read once, when this module loads, so a crash point costs one comparison.
 */

export const CRASH_POINT_ENV = 'PALIMPSEST_CRASH_POINT';

export const CRASH_POINTS = [
  'publication.after_started',
  'publication.after_stage',
  'publication.after_fsync',
  'publication.after_install.1',
  'publication.after_install.2',
  'publication.before_outcome',
] as const;

export type CrashPointName = (typeof CRASH_POINTS)[number];

const armed = process.env[CRASH_POINT_ENV];

export function crashPoint(name: CrashPointName): void {
  if (armed === name) process.kill(process.pid, 'SIGKILL');
}
