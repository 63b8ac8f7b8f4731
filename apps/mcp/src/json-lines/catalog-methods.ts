import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import type { MethodAvailability } from './json-lines-session';

/** `full` serves every catalog operation; `read-only` serves only those marked readOnly. */
export type ServeProfile = 'full' | 'read-only';

export const SERVE_PROFILES: readonly ServeProfile[] = ['full', 'read-only'];

/** Method names are the catalog's operation names, nothing else. */
export function catalogAvailability(profile: ServeProfile): (method: string) => MethodAvailability {
  const readOnly = new Map(CATALOG.map((op) => [op.name, op.readOnly]));
  return (method) => {
    const isReadOnly = readOnly.get(method);
    if (isReadOnly === undefined) return 'unknown';
    if (profile === 'read-only' && !isReadOnly) return 'read_only_profile';
    return 'available';
  };
}
