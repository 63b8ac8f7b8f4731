import { codePointLength, sliceCodePoints } from '../text/code-points';
import type { TextEffect } from '../transaction/text-effect';

/**
 * The effects that take an acceptance's text back to its preimage: each effect's inserted text, where it
 * stands after the acceptance, replaced by what it removed from `preimage`. Ascending and disjoint like
 * their source (an acceptance's effects never touch, so neither do their inverses).
 */
export function invertEffects(preimage: string, effects: readonly TextEffect[]): TextEffect[] {
  let delta = 0;
  return effects.map((e) => {
    const length = codePointLength(e.inserted);
    const start = e.start + delta;
    delta += length - (e.end - e.start);
    return { start, end: start + length, inserted: sliceCodePoints(preimage, e.start, e.end) };
  });
}

/** Where each effect's new text stands in the text after its acceptance: [start, start + inserted length). */
export function postRanges(effects: readonly TextEffect[]): { start: number; end: number }[] {
  let delta = 0;
  return effects.map((e) => {
    const length = codePointLength(e.inserted);
    const start = e.start + delta;
    delta += length - (e.end - e.start);
    return { start, end: start + length };
  });
}
