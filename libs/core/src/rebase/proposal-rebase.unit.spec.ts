import { applyEffects, type TextEffect } from '../transaction/text-effect';
import type { EffectStep } from './effect-step';
import { changedRangesNow, conflictingWriters, rebaseSpans, type RebaseSpan } from './proposal-rebase';

const step = (n: number, ...effects: TextEffect[]): EffectStep => ({ attempt_id: `a${n}`, after_version: n, effects });
const span = (start: number, end: number, replaceLength: number, beforeLength = 0, afterLength = 0): RebaseSpan => ({ start, end, replaceLength, beforeLength, afterLength });
const base = 'line one\nline two\nline three\n';

describe('rebaseSpans', () => {
  it('given edits elsewhere, then each span moves by what changed before it, in the buffer the earlier spans left', () => {
    // Later: "line one" became "LINE 1" (-2) and an insertion at the end.
    const steps = [step(4, { start: 0, end: 8, inserted: 'LINE 1' }), step(5, { start: 27, end: 27, inserted: 'tail\n' })];
    // The submission: "two" → "2" at [14,17), then "three" in the buffer that left ([23,28) → [21,26)).
    const result = rebaseSpans([span(14, 17, 1), span(21, 26, 1)], steps);
    expect(result).toEqual({
      kind: 'rebased',
      moves: [
        { change_index: 1, from: { start: 14, end: 17 }, to: { start: 12, end: 15 } },
        { change_index: 2, from: { start: 21, end: 26 }, to: { start: 19, end: 24 } },
      ],
    });
    // Applied in order to the current text, the moved spans make the change the submission meant.
    const now = steps.reduce((t, s) => applyEffects(t, s.effects), base);
    const rebased = [{ start: 12, end: 15, inserted: '2' }, { start: 19, end: 24, inserted: '3' }].reduce((t, e) => applyEffects(t, [e]), now);
    expect(rebased).toBe('LINE 1\nline 2\nline 3\ntail\n');
  });

  it('given a later edit over a span, then it is a conflict naming that attempt', () => {
    const result = rebaseSpans([span(14, 17, 1)], [step(4, { start: 0, end: 1, inserted: 'L' }), step(5, { start: 15, end: 16, inserted: 'W' })]);
    expect(result).toEqual({ kind: 'conflict', conflicts: [{ attempt_id: 'a5', version: 5 }] });
  });

  it('given a later edit against its context (expected_before), then it is a conflict', () => {
    expect(rebaseSpans([span(14, 17, 1, 5)], [step(4, { start: 9, end: 10, inserted: 'L' })]).kind).toBe('conflict');
    expect(rebaseSpans([span(14, 17, 1)], [step(4, { start: 9, end: 10, inserted: 'L' })]).kind).toBe('rebased');
  });
});

describe('changedRangesNow and conflictingWriters', () => {
  it('given writes since the base, then a change meeting one names its writer, one elsewhere none', () => {
    const steps = [step(2, { start: 5, end: 8, inserted: 'ONE' }), step(3, { start: 0, end: 0, inserted: '>>' })];
    const changed = changedRangesNow(steps);
    expect(changed).toEqual([
      { start: 7, end: 10, by: { attempt_id: 'a2', version: 2 } },
      { start: 0, end: 2, by: { attempt_id: 'a3', version: 3 } },
    ]);
    expect(conflictingWriters([{ start: 8, end: 9, inserted: 'x' }], changed)).toEqual([{ attempt_id: 'a2', version: 2 }]);
    expect(conflictingWriters([{ start: 15, end: 19, inserted: 'x' }], changed)).toEqual([]);
  });
});
