import { codePointLength, codePointToUnit, isBmpOnly } from '../text/code-points';
import { asciiJson } from '../transaction/record-codec';
import { headCodePoints, stepBack, stepForward } from '../transaction/text-window';

export const MAX_EXACT_CANDIDATES = 5;
export const CANDIDATE_CONTEXT_CODE_POINTS = 20;
export const MATCH_PREVIEW_CODE_POINTS = 64;
/** Budget for the whole exact_candidates object, wrapper key included, in compact ASCII-escaped JSON. */
export const EXACT_CANDIDATES_BYTE_BUDGET = 8192;

export type BufferStage = 'canonical_target' | 'intermediate_buffer';

export interface ExactCandidate {
  occurrence_index: number;
  start: number;
  end: number;
  before: string;
  match_preview: string;
  match_truncated: boolean;
  after: string;
}

export interface ExactCandidates {
  kind: 'exact_occurrences';
  occurrence_count: number;
  returned_count: number;
  candidates: ExactCandidate[];
  truncated: boolean;
  next_occurrence_index: number | null;
  buffer_stage: BufferStage;
  prior_changes: number;
  observed_target_version: number | null;
  observed_target_hash: string | null;
}

export interface ExactCandidateOptions {
  bufferStage: BufferStage;
  priorChanges: number;
  observedVersion: number | null;
  observedHash: string | null;
  /** Total number of occurrences when `occurrences` holds only the first few; defaults to its length. */
  occurrenceCount?: number;
  /** Defaults to EXACT_CANDIDATES_BYTE_BUDGET. Five candidates of bounded size fit it today; the check keeps that true. */
  byteBudget?: number;
}

/**
 * Exact occurrences of `match` in the failing buffer, for match_ambiguous and disambiguation_invalid.
 * `occurrences` are code-point starts in ascending order, beginning with occurrence 1.
 */
export function buildExactCandidates(
  buffer: string,
  match: string,
  occurrences: readonly number[],
  opts: ExactCandidateOptions,
): ExactCandidates {
  const occurrenceCount = opts.occurrenceCount ?? occurrences.length;
  const candidates = occurrences
    .slice(0, MAX_EXACT_CANDIDATES)
    .map((start, i) => describeOccurrence(buffer, match, start, i + 1));
  const result: ExactCandidates = {
    kind: 'exact_occurrences',
    occurrence_count: occurrenceCount,
    returned_count: 0,
    candidates,
    truncated: false,
    next_occurrence_index: null,
    buffer_stage: opts.bufferStage,
    prior_changes: opts.priorChanges,
    observed_target_version: opts.observedVersion,
    observed_target_hash: opts.observedHash,
  };
  settleCounts(result);
  const budget = opts.byteBudget ?? EXACT_CANDIDATES_BYTE_BUDGET;
  while (result.candidates.length > 0 && measuredBytes(result) > budget) {
    result.candidates.pop();
    settleCounts(result);
  }
  return result;
}

/** Fill in the observed target identity once it is known (it does not change the byte measurement). */
export function withObservedTarget(candidates: ExactCandidates, version: number, hash: string): ExactCandidates {
  return { ...candidates, observed_target_version: version, observed_target_hash: hash };
}

function describeOccurrence(buffer: string, match: string, start: number, index: number): ExactCandidate {
  const bmpOnly = isBmpOnly(buffer);
  const unit = codePointToUnit(buffer, start, bmpOnly);
  const endUnit = unit + match.length;
  const preview = headCodePoints(match, MATCH_PREVIEW_CODE_POINTS);
  return {
    occurrence_index: index,
    start,
    end: start + codePointLength(match),
    before: buffer.slice(stepBack(buffer, unit, CANDIDATE_CONTEXT_CODE_POINTS), unit),
    match_preview: preview.text,
    match_truncated: preview.truncated,
    after: buffer.slice(endUnit, stepForward(buffer, endUnit, CANDIDATE_CONTEXT_CODE_POINTS)),
  };
}

function settleCounts(result: ExactCandidates): void {
  const returned = result.candidates.length;
  result.returned_count = returned;
  result.truncated = returned < result.occurrence_count;
  result.next_occurrence_index = result.truncated ? returned + 1 : null;
}

// Unknown observed identity is measured as the largest value it can take, so filling it in later
// can never push the object over budget.
const PLACEHOLDER_HASH = '0'.repeat(64);

function measuredBytes(result: ExactCandidates): number {
  const measured = {
    ...result,
    observed_target_version: result.observed_target_version ?? Number.MAX_SAFE_INTEGER,
    observed_target_hash: result.observed_target_hash ?? PLACEHOLDER_HASH,
  };
  return asciiJson({ exact_candidates: measured }).length;
}
