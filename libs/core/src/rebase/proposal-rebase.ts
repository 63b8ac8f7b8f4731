import { codePointLength } from '../text/code-points';
import type { TextEffect } from '../transaction/text-effect';
import type { CodePointRange, EffectStep, Toucher } from './effect-step';
import { postRanges } from './effect-inversion';
import { mapRange, meetsRange } from './range-relocation';

/**
 * A span change as a rebase sees it: its range in the buffer the changes before it left (a tx/2
 * transaction is sequential), the code points of its replacement, and of the context it also checks
 * before and after the range (expected_before / expected_after).
 */
export interface RebaseSpan {
  start: number;
  end: number;
  replaceLength: number;
  beforeLength: number;
  afterLength: number;
}

/** A span moved by a rebase: its range as submitted and as applied. */
export interface SpanMove {
  change_index: number;
  from: CodePointRange;
  to: CodePointRange;
}

export type SpanRebase = { kind: 'rebased'; moves: SpanMove[] } | { kind: 'conflict'; conflicts: Toucher[] };

const shiftAfter = (effects: readonly TextEffect[], at: number, by: number): TextEffect[] =>
  by === 0 ? [...effects] : effects.map((e) => (e.start > at ? { ...e, start: e.start + by, end: e.end + by } : e));

/** The net code-point change of the effects lying before `at` (none of them meets the range that starts there). */
function deltaBefore(effects: readonly TextEffect[], at: number): number {
  let delta = 0;
  for (const e of effects) {
    if (e.end >= at) break;
    delta += codePointLength(e.inserted) - (e.end - e.start);
  }
  return delta;
}

/**
 * Carry a sequential list of spans, written against the text of some version, through the effects of
 * every later acceptance (in order). A span whose guarded range (with its context) meets a later effect
 * — overlaps it, or lies against it — is a conflict naming that acceptance; otherwise each span moves by
 * what changed before it. Pure: the effects come from the log.
 */
export function rebaseSpans(spans: readonly RebaseSpan[], steps: readonly EffectStep[]): SpanRebase {
  let current = spans.map((s) => ({ ...s }));
  const conflicts: Toucher[] = [];
  for (const step of steps) {
    let effects: TextEffect[] = [...step.effects];
    let hit = false;
    const next: RebaseSpan[] = [];
    for (const span of current) {
      const guarded = { start: span.start - span.beforeLength, end: span.end + span.afterLength };
      if (effects.some((e) => meetsRange(e, guarded))) hit = true;
      const delta = deltaBefore(effects, guarded.start);
      next.push({ ...span, start: span.start + delta, end: span.end + delta });
      // The later spans read the buffer this one leaves: the step's effects after it move with it.
      effects = shiftAfter(effects, span.end, span.replaceLength - (span.end - span.start));
    }
    if (hit) conflicts.push({ attempt_id: step.attempt_id, version: step.after_version });
    current = next;
  }
  if (conflicts.length > 0) return { kind: 'conflict', conflicts };
  return {
    kind: 'rebased',
    moves: spans.map((s, i) => ({ change_index: i + 1, from: { start: s.start, end: s.end }, to: { start: current[i]!.start, end: current[i]!.end } })),
  };
}

/** A range of the current text that some acceptance since the base version wrote (its new text, carried forward). */
export interface ChangedRange extends CodePointRange {
  by: Toucher;
}

/** Every range the steps wrote, where it stands after the last of them (a deletion is the empty point it left). */
export function changedRangesNow(steps: readonly EffectStep[]): ChangedRange[] {
  let ranges: ChangedRange[] = [];
  for (const step of steps) {
    ranges = ranges.map((r) => ({ ...mapRange(r, step.effects), by: r.by }));
    const by = { attempt_id: step.attempt_id, version: step.after_version };
    for (const r of postRanges(step.effects)) ranges.push({ ...r, by });
  }
  return ranges;
}

/**
 * The acceptances whose written ranges the effects of a change on the current text meet (overlap or
 * lie against): a rebased change must sit outside every range changed since its base. Oldest first, once each.
 */
export function conflictingWriters(effects: readonly TextEffect[], changed: readonly ChangedRange[]): Toucher[] {
  const found = new Map<string, Toucher>();
  for (const r of changed) {
    if (effects.some((e) => meetsRange(e, r))) found.set(r.by.attempt_id, r.by);
  }
  return [...found.values()].sort((a, b) => a.version - b.version);
}
