/**
 * Opt-in crash points for the crash tests (the publication's, issue 14, and the log consumers'): `crashPoint(name)` ends the process
 * with SIGKILL, as a power cut or the OOM killer would (no handlers, no flush, no finally), when the
 * process was armed for that point (armCrashPoint, called by the composition root with PALIMPSEST_CRASH_POINT);
 * `name@N` waits for the Nth time the process reaches it, so a test that kills a process in a loop still
 * sees progress. Unarmed, or armed for another point, it does nothing: a crash point costs one comparison.
 */

export const CRASH_POINT_ENV = 'PALIMPSEST_CRASH_POINT';

export const CRASH_POINTS = [
  'publication.after_started',
  'publication.after_stage',
  'publication.after_fsync',
  'publication.after_install.1',
  'publication.after_install.2',
  'publication.before_outcome',
  /** The journal committed, its backups not yet removed (start-up removes them). */
  'publication.before_cleanup',
] as const;

/** The log consumers' points (apps/projector). */
export const CONSUMER_CRASH_POINTS = [
  /** The projector: a batch applied, its transaction (with the checkpoint) not yet committed. */
  'projector.after_apply',
  /** The relay: half of a batch's publishes acknowledged, the rest in flight. */
  'relay.mid_publish',
  /** The relay: every publish of the batch acknowledged, the checkpoint not yet moved. */
  'relay.after_acks',
] as const;

export type CrashPointName = (typeof CRASH_POINTS)[number];
export type ConsumerCrashPointName = (typeof CONSUMER_CRASH_POINTS)[number];

let armed: string | null = null;
let nth = 1;
let hits = 0;

/** Arms the process for the point `spec` names (`name` or `name@N`); unset, empty or malformed leaves it inert. */
export function armCrashPoint(spec: string | undefined): void {
  const match = /^([^@]+)(?:@(\d+))?$/.exec(spec ?? '');
  armed = match ? match[1]! : null;
  nth = match ? Number(match[2] ?? 1) : 1;
  hits = 0;
}

export function crashPoint(name: CrashPointName | ConsumerCrashPointName): void {
  if (armed !== name) return;
  hits += 1;
  if (hits >= nth) process.kill(process.pid, 'SIGKILL');
}
