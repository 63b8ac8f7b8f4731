import type { SinceLookup } from '@palimpsest/core/target/target.commands';
import { isNonNegativeInteger } from '@palimpsest/core/target/guards';
import type { Sql } from '@palimpsest/store/db';
import type { TargetRow } from '@palimpsest/projections/content/target-row.queries';
import { effectStepsBetween, type EffectStepRow } from '@palimpsest/projections/accepted-effects.queries';
import type { TextEffect } from '@palimpsest/core/transaction/text-effect';
import { asStep, withEffects } from '../changes-since/effect-history';

/**
 * Acceptances after a version that a caller read already (an undo reads them with the attempt it undoes):
 * committed history never changes, so they serve any head at `to_version`; a head past it reads again.
 */
export interface KnownSteps extends SinceLookup {
  to_version: number;
}

/** The known steps of acceptances read after `fromVersion`, oldest first, with effects. */
export function knownSteps(fromVersion: number, rows: readonly (EffectStepRow & { effects: TextEffect[] })[]): KnownSteps | null {
  if (rows.length === 0) return null;
  return { from_version: fromVersion, from_hash: rows[0]!.before_hash, to_version: rows[rows.length - 1]!.after_version, steps: rows.map(asStep) };
}

/** A rebase looks back at most this many acceptances; a guard older than that stays stale. */
export const REBASE_MAX_STEPS = 1_000;

/**
 * Under the row lock, for a submission with rebase: the acceptances after its expected_target_version up
 * to the locked version, with the hash of that version. Null when there is nothing to rebase through
 * (no stale version guard) or too much.
 */
export async function sinceLookup(
  tx: Sql,
  target: Extract<TargetRow, { exists: true }>,
  expected: unknown,
  known?: KnownSteps,
): Promise<SinceLookup | null> {
  if (!isNonNegativeInteger(expected) || expected >= target.version || target.version - expected > REBASE_MAX_STEPS) return null;
  if (known && known.from_version === expected && known.to_version === target.version && known.steps.length > 0) return known;
  return knownSteps(expected, await withEffects(tx, await effectStepsBetween(tx, target.target_id, expected, target.version, REBASE_MAX_STEPS)));
}
