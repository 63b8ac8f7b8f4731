import type { SinceLookup } from '@palimpsest/core/target/target.commands';
import { isNonNegativeInteger } from '@palimpsest/core/target/guards';
import type { Sql } from '@palimpsest/store/db';
import type { TargetRow } from '@palimpsest/projections/content/target-row.queries';
import { asStep, effectStepsSince } from '../changes-since/effect-history';

/** A rebase looks back at most this many acceptances; a guard older than that stays stale. */
export const REBASE_MAX_STEPS = 1_000;

/**
 * Under the row lock, for a submission with rebase: the acceptances after its expected_target_version up
 * to the locked version, with the hash of that version. Null when there is nothing to rebase through
 * (no stale version guard) or too much.
 */
export async function sinceLookup(tx: Sql, target: Extract<TargetRow, { exists: true }>, expected: unknown): Promise<SinceLookup | null> {
  if (!isNonNegativeInteger(expected) || expected >= target.version || target.version - expected > REBASE_MAX_STEPS) return null;
  const rows = await effectStepsSince(tx, target.target_id, expected, target.version);
  if (rows.length === 0) return null;
  return { from_version: expected, from_hash: rows[0]!.before_hash, steps: rows.map(asStep) };
}
