import { nearMissQuery } from '../diagnostics/near-misses';
import { MAX_EXACT_CANDIDATES, buildExactCandidates } from '../diagnostics/exact-candidates';
import { toCanonicalLf } from '../text/canonical-text';
import { codePointLength } from '../text/code-points';
import type { MatchChange } from './parse-proposal';
import { unitsToCodePoints } from './sequential-buffer';
import type { SequentialBuffer } from './sequential-buffer';
import { sequentialBasisNote, stepFailure, stepSuccess } from './step';
import type { StepEnv, StepResult } from './step';
import { isCodePointBoundary } from './text-window';

export const MATCH_ABSENT_DETAIL = 'MATCH text was not found in the target.';
export const MATCH_AMBIGUOUS_DETAIL = 'MATCH text appears multiple times without disambiguation.';
export const MATCH_CONSUMED_DETAIL = 'MATCH text was consumed by earlier change in this transaction.';
const MAX_ORIGINAL_OCCURRENCES = 5;

/** UTF-16 window an occurrence must lie in for the anchors to hold. */
interface AnchorBounds {
  supplied: boolean;
  minStart: number;
  maxEnd: number;
}

/** One streaming pass over the overlapping occurrences of a match, keeping only what a decision needs. */
interface Scan {
  count: number;
  firstUnits: number[];
  kthUnit: number | null;
  survivors: number;
  firstSurvivorUnit: number | null;
}

/** Count exact occurrences of `needle` in `text`, overlapping ones included ("aa" in "aaaa" is 3). */
export function countOccurrences(text: string, needle: string): number {
  return scanOccurrences(text, needle, null, { supplied: false, minStart: 0, maxEnd: text.length }).count;
}

/** UTF-16 starts of the first `limit` overlapping occurrences. */
export function firstOccurrences(text: string, needle: string, limit: number): { count: number; units: number[] } {
  const scan = scanOccurrences(text, needle, null, { supplied: false, minStart: 0, maxEnd: text.length }, limit);
  return { count: scan.count, units: scan.firstUnits };
}

function scanOccurrences(text: string, needle: string, k: number | null, bounds: AnchorBounds, keep = MAX_EXACT_CANDIDATES): Scan {
  const scan: Scan = { count: 0, firstUnits: [], kthUnit: null, survivors: 0, firstSurvivorUnit: null };
  const len = needle.length;
  // Only a needle that begins or ends inside a surrogate pair could match across a pair boundary.
  const checkBoundaries = isSurrogate(needle.charCodeAt(0)) || isSurrogate(needle.charCodeAt(len - 1));
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    if (checkBoundaries && !(isCodePointBoundary(text, at) && isCodePointBoundary(text, at + len))) continue;
    scan.count++;
    if (scan.firstUnits.length < keep) scan.firstUnits.push(at);
    if (scan.count === k) scan.kthUnit = at;
    if (satisfies(at, len, bounds)) {
      scan.survivors++;
      if (scan.firstSurvivorUnit === null) scan.firstSurvivorUnit = at;
    }
  }
  return scan;
}

function satisfies(at: number, len: number, bounds: AnchorBounds): boolean {
  return at >= bounds.minStart && at + len <= bounds.maxEnd;
}

function isSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdfff;
}

/** anchor_before must occur wholly before the match start, anchor_after wholly after its end. */
function anchorBounds(text: string, before: string | null, after: string | null): AnchorBounds {
  let minStart = 0;
  let maxEnd = text.length;
  if (before !== null) {
    const first = text.indexOf(before);
    minStart = first === -1 ? Infinity : first + before.length;
  }
  if (after !== null) {
    const last = text.lastIndexOf(after);
    maxEnd = last === -1 ? -Infinity : last;
  }
  return { supplied: before !== null || after !== null, minStart, maxEnd };
}

type Choice = { unit: number } | { reason: 'match_ambiguous' | 'disambiguation_invalid'; detail: string; check: string | null };

function choose(scan: Scan, k: number | null, len: number, bounds: AnchorBounds): Choice {
  if (k !== null) {
    if (scan.kthUnit === null) {
      const found = scan.count === 1 ? '1 exact occurrence' : `${scan.count} exact occurrences`;
      const detail = `OCCURRENCE_INDEX ${k} is beyond the ${found} of MATCH text.`;
      return { reason: 'disambiguation_invalid', detail, check: 'occurrence_index_out_of_range' };
    }
    const at = scan.kthUnit;
    if (!satisfies(at, len, bounds)) {
      const detail = `Occurrence ${k} of MATCH text does not satisfy the supplied anchors.`;
      return { reason: 'disambiguation_invalid', detail, check: 'occurrence_anchors_unsatisfied' };
    }
    return { unit: at };
  }
  if (!bounds.supplied) {
    return scan.count === 1 ? { unit: scan.firstUnits[0] } : { reason: 'match_ambiguous', detail: MATCH_AMBIGUOUS_DETAIL, check: null };
  }
  if (scan.survivors === 1) return { unit: scan.firstSurvivorUnit as number };
  if (scan.survivors === 0) {
    const detail = 'No occurrence of MATCH text satisfies the supplied anchors.';
    return { reason: 'disambiguation_invalid', detail, check: 'anchors_unsatisfied' };
  }
  const detail = `MATCH text appears multiple times and the supplied anchors leave ${scan.survivors} occurrences.`;
  return { reason: 'match_ambiguous', detail, check: 'anchors_not_unique' };
}

/** Resolve a typed match against the sequential buffer (tx/1 edits and tx/2 match operations). */
export function applyMatchChange(buf: SequentialBuffer, change: MatchChange, env: StepEnv): StepResult {
  const match = toCanonicalLf(change.match);
  const replacement = toCanonicalLf(change.replace);
  const before = change.anchor_before === null ? null : toCanonicalLf(change.anchor_before);
  const after = change.anchor_after === null ? null : toCanonicalLf(change.anchor_after);
  const bounds = anchorBounds(buf.text, before, after);
  const scan = scanOccurrences(buf.text, match, change.occurrence_index, bounds);
  if (scan.count === 0) return absentOrConsumed(buf, match, env);
  const choice = choose(scan, change.occurrence_index, match.length, bounds);
  if (!('unit' in choice)) return selectorFailure(buf, match, scan, choice, bounds.supplied, env);
  const start = buf.toCodePoint(choice.unit);
  const at = { start, end: start + codePointLength(match), unitStart: choice.unit, unitEnd: choice.unit + match.length };
  return stepSuccess(env, at, match, replacement, 'match');
}

function selectorFailure(
  buf: SequentialBuffer,
  match: string,
  scan: Scan,
  choice: Exclude<Choice, { unit: number }>,
  anchorsSupplied: boolean,
  env: StepEnv,
): StepResult {
  const prior = buf.priorChanges;
  const starts = buf.toCodePoints(scan.firstUnits);
  const candidates = buildExactCandidates(buf.text, match, starts, {
    bufferStage: prior === 0 ? 'canonical_target' : 'intermediate_buffer',
    priorChanges: prior,
    observedVersion: env.observedVersion,
    observedHash: env.observedHash,
    occurrenceCount: scan.count,
  });
  const diagnostic: Record<string, unknown> = { occurrence_count: scan.count, exact_candidates: candidates };
  if (choice.check !== null) diagnostic.selector_check = choice.check;
  if (anchorsSupplied) diagnostic.anchored_occurrence_count = scan.survivors;
  const detail = choice.detail + sequentialBasisNote(prior);
  return stepFailure(env, buf, choice.reason, detail, diagnostic, starts[0]);
}

/** Absent now: either never there (match_absent) or eaten by earlier changes (sequential_match_invalid). */
function absentOrConsumed(buf: SequentialBuffer, match: string, env: StepEnv): StepResult {
  const original = buf.priorChanges > 0 ? firstOccurrences(buf.original, match, MAX_ORIGINAL_OCCURRENCES) : null;
  if (original === null || original.count === 0) {
    return stepFailure(env, buf, 'match_absent', MATCH_ABSENT_DETAIL, { occurrence_count: 0, near_miss_query: nearMissQuery(match) }, null);
  }
  const matchChars = codePointLength(match);
  const starts = unitsToCodePoints(buf.original, original.units, buf.originalBmpOnly);
  const occurrences = starts.map((start, i) => {
    const consumer = buf.consumerOf(start, start + matchChars);
    return {
      occurrence_index: i + 1,
      start,
      end: start + matchChars,
      consumed_by_change_id: consumer?.change_id ?? null,
      consumed_by_change_index: consumer?.change_index ?? null,
    };
  });
  const diagnostic = {
    occurrence_count: 0,
    original_occurrence_count: original.count,
    original_occurrences: occurrences,
  };
  return stepFailure(env, buf, 'sequential_match_invalid', MATCH_CONSUMED_DETAIL, diagnostic, null);
}
