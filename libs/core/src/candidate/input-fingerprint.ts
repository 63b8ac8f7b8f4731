import { sha256Hex } from '../text/sha256';
import { canonicalJson } from '../transaction/record-codec';
import type { BaseEntry } from './candidate.commands';

/**
 * Request fingerprints bind a request_id to its input: SHA-256 of the canonical JSON (sorted keys,
 * no whitespace) of the operation name and its arguments, with base entries sorted by target and
 * check names sorted and deduplicated, so equivalent requests fingerprint alike.
 */

const sortedBase = (base: BaseEntry[]) => [...base].sort((a, b) => (a.target_id < b.target_id ? -1 : a.target_id > b.target_id ? 1 : 0));
const sortedNames = (names: readonly string[] | undefined) => [...new Set(names ?? [])].sort();

export function proposeFingerprint(input: {
  candidate: string | null;
  expected_candidate_version: number | null;
  base: BaseEntry[];
  operations: unknown[];
  intent: string | null;
  checks?: readonly string[];
}): string {
  return sha256Hex(
    canonicalJson({
      operation: 'change_propose',
      candidate: input.candidate,
      expected_candidate_version: input.expected_candidate_version,
      base: sortedBase(input.base),
      operations: input.operations,
      intent: input.intent,
      checks: sortedNames(input.checks),
    }),
  );
}

export function applyFingerprint(input: { candidate: string; expected_candidate_version: number; require_checks?: readonly string[] }): string {
  return sha256Hex(
    canonicalJson({
      operation: 'change_apply',
      candidate: input.candidate,
      expected_candidate_version: input.expected_candidate_version,
      require_checks: sortedNames(input.require_checks),
    }),
  );
}
