export type ProfileName = 'full' | 'read-only';

/** A profile is chosen once at start-up; an unknown name refuses to start. */
export function parseProfile(value: string): ProfileName {
  if (value === 'full' || value === 'read-only') return value;
  throw new Error(`unknown profile ${JSON.stringify(value)}: use full or read-only`);
}
