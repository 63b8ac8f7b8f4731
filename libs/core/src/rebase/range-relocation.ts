import { codePointLength } from '../text/code-points';
import type { TextEffect } from '../transaction/text-effect';
import type { CodePointRange, EffectStep, Toucher } from './effect-step';

/**
 * Where a range read at one version is in a later one. `unchanged`: no effect moved or touched it;
 * `moved`: effects before it shifted it, none touched it; `rewritten`: an effect replaced part of it or
 * inserted inside it (the range now spans what replaced it); `deleted`: its text is gone and nothing
 * took its place (the range is the empty point where it stood).
 */
export type RelocationStatus = 'unchanged' | 'moved' | 'rewritten' | 'deleted';

export interface Relocation extends CodePointRange {
  status: RelocationStatus;
  /** The attempts whose effects touched the range, oldest first (empty unless rewritten or deleted). */
  touched_by: Toucher[];
}

type Role = 'start' | 'end';

/**
 * A position through one acceptance's effects. An insertion exactly at the position goes before a
 * range's start and after its end (it is not taken into the range); a position inside a replaced part
 * goes to the replacement's start (a start) or its end (an end), so the range spans the new text.
 */
export function mapPosition(p: number, effects: readonly TextEffect[], role: Role): number {
  let delta = 0;
  for (const e of effects) {
    const inserted = codePointLength(e.inserted);
    if (e.end < p || (e.end === p && e.start < e.end) || (e.start === p && e.end === p && role === 'start')) {
      delta += inserted - (e.end - e.start);
      continue;
    }
    if (e.start < p && p < e.end) return e.start + delta + (role === 'end' ? inserted : 0);
    break;
  }
  return p + delta;
}

/** Whether an effect changes text of the range: overlaps it, or inserts strictly inside it (a point: replaces around it). */
export function touchesRange(e: TextEffect, r: CodePointRange): boolean {
  if (r.start === r.end) return e.start < r.start && r.start < e.end;
  if (e.start === e.end) return r.start < e.start && e.start < r.end;
  return e.start < r.end && e.end > r.start;
}

/** Whether an effect touches the range or lies against it (shares a boundary): the conservative test a write uses. */
export function meetsRange(e: TextEffect, r: CodePointRange): boolean {
  return e.start <= r.end && e.end >= r.start;
}

/** A range through one acceptance's effects. */
export function mapRange(r: CodePointRange, effects: readonly TextEffect[]): CodePointRange {
  if (r.start === r.end) {
    const p = mapPosition(r.start, effects, 'start');
    return { start: p, end: p };
  }
  const start = mapPosition(r.start, effects, 'start');
  return { start, end: Math.max(start, mapPosition(r.end, effects, 'end')) };
}

/**
 * relocate: a range read at some version, carried through the effects of every later acceptance in
 * order (pure: the caller reads the steps). A deleted range stays deleted: text inserted later at its
 * point is not the text that was read.
 */
export function relocateRange(range: CodePointRange, steps: readonly EffectStep[]): Relocation {
  let current: CodePointRange = { ...range };
  let status: RelocationStatus = 'unchanged';
  const touched: Toucher[] = [];
  for (const step of steps) {
    const touching = step.effects.some((e) => touchesRange(e, current));
    const next = mapRange(current, step.effects);
    if (touching) {
      touched.push({ attempt_id: step.attempt_id, version: step.after_version });
      if (status !== 'deleted') status = next.start === next.end && range.start !== range.end ? 'deleted' : 'rewritten';
    } else if (status === 'unchanged' && (next.start !== current.start || next.end !== current.end)) {
      status = 'moved';
    }
    current = next;
  }
  return { ...current, status, touched_by: touched };
}
