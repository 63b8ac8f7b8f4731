import { canonicalJson } from '../transaction/record-codec';

/**
 * A payload with every object's members in canonical order, for a bundle to carry (`palimpsest export`).
 * The verifier's canonicalJson then finds each object in order and sorts nothing: with the members as
 * PostgreSQL's jsonb gives them back (shortest name first), sorting was the largest cost of verification.
 * Integer-like names stay first, as JSON.parse keeps them; the encoder sorts those few.
 */
export function inCanonicalMemberOrder<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(canonicalJson(value)) as T);
}
