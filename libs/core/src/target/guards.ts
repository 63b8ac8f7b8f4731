import { SHA256_HEX } from '../text/sha256';
import { isUuid } from './request-identity';

export interface GuardProblem {
  code: string;
  argument: string;
  detail: string;
}

export function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

const supplied = (value: unknown) => value !== undefined && value !== null;

/** Guard syntax: at least one guard, each supplied guard well-formed. */
export function checkGuardSyntax(version: unknown, hash: unknown): GuardProblem | null {
  if (!supplied(version) && !supplied(hash)) {
    return {
      code: 'missing_guard',
      argument: 'expected_target_version',
      detail: 'At least one guard is required: expected_target_version and/or expected_current_hash.',
    };
  }
  if (supplied(version) && !isNonNegativeInteger(version)) {
    return {
      code: 'invalid_expected_target_version',
      argument: 'expected_target_version',
      detail: 'expected_target_version must be a non-negative integer (booleans and fractions are refused).',
    };
  }
  if (supplied(hash) && !(typeof hash === 'string' && SHA256_HEX.test(hash))) {
    return {
      code: 'invalid_expected_current_hash',
      argument: 'expected_current_hash',
      detail: 'expected_current_hash must be 64 lowercase hexadecimal characters (SHA-256 of the canonical text).',
    };
  }
  return null;
}

/** Lineage syntax: parent attempt UUID, positive attempt number, string source. */
export function checkLineageSyntax(parent: unknown, attempt: unknown, source: unknown): GuardProblem | null {
  if (supplied(parent) && !isUuid(parent)) {
    return {
      code: 'invalid_parent_attempt_id',
      argument: 'parent_attempt_id',
      detail: 'parent_attempt_id must be the UUID of an earlier attempt on this target.',
    };
  }
  if (supplied(attempt) && !(isNonNegativeInteger(attempt) && attempt >= 1)) {
    return { code: 'invalid_attempt', argument: 'attempt', detail: 'attempt must be a positive integer (1-based).' };
  }
  if (supplied(source) && (typeof source !== 'string' || source.length === 0 || source.length > 128)) {
    return { code: 'invalid_source', argument: 'source', detail: 'source must be a string of 1 to 128 characters.' };
  }
  return null;
}

export interface StaleGuard {
  failure_reason: 'target_version_mismatch' | 'target_hash_mismatch';
  detail: string;
}

/** Every supplied guard is checked against the locked state; the version guard is reported first. */
export function checkGuardsAgainst(
  version: number | null,
  hash: string | null,
  state: { version: number; current_hash: string },
): StaleGuard | null {
  if (version !== null && version !== state.version) {
    return {
      failure_reason: 'target_version_mismatch',
      detail: `expected_target_version ${version} does not match the current version ${state.version}.`,
    };
  }
  if (hash !== null && hash !== state.current_hash) {
    return {
      failure_reason: 'target_hash_mismatch',
      detail: 'expected_current_hash does not match the current canonical text hash.',
    };
  }
  return null;
}
