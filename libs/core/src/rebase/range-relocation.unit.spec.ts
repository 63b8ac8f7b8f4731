import fc from 'fast-check';
import { applyEffects, type TextEffect } from '../transaction/text-effect';
import type { EffectStep } from './effect-step';
import { invertEffects } from './effect-inversion';
import { relocateRange } from './range-relocation';

/**
 * relocate: a range read at one version, through the effects of the acceptances after it. Each case
 * is given a text and a range on it, when some acceptances happen, then the range is where its text went.
 */

const step = (n: number, ...effects: TextEffect[]): EffectStep => ({ attempt_id: `a${n}`, after_version: n, effects });
const text = 'alpha beta gamma delta';
const beta = { start: 6, end: 10 };

function given(range: { start: number; end: number }) {
  return {
    when: (...steps: EffectStep[]) => {
      const after = steps.reduce((t, s) => applyEffects(t, s.effects), text);
      const found = relocateRange(range, steps);
      return { found, after, slice: after.slice(found.start, found.end) };
    },
  };
}

describe('relocateRange', () => {
  it('given no later change, then the range is unchanged', () => {
    const { found } = given(beta).when();
    expect(found).toEqual({ start: 6, end: 10, status: 'unchanged', touched_by: [] });
  });

  it('given an insertion before the range, then it moves by the insertion', () => {
    const { found, slice } = given(beta).when(step(1, { start: 0, end: 0, inserted: 'the ' }));
    expect(found.status).toBe('moved');
    expect(slice).toBe('beta');
  });

  it('given a deletion before and a rewrite after, then it moves and stays untouched', () => {
    const { found, slice } = given(beta).when(step(1, { start: 0, end: 6, inserted: '' }, { start: 11, end: 16, inserted: 'GAMMA!' }));
    expect(found).toMatchObject({ start: 0, end: 4, status: 'moved', touched_by: [] });
    expect(slice).toBe('beta');
  });

  it('given insertions exactly at both ends, then they stay outside the range', () => {
    const { found, slice } = given(beta).when(step(1, { start: 6, end: 6, inserted: '<' }, { start: 10, end: 10, inserted: '>' }));
    expect(found.status).toBe('moved');
    expect(slice).toBe('beta');
  });

  it('given an insertion inside the range, then it is rewritten and spans the new text', () => {
    const { found, slice } = given(beta).when(step(1, { start: 8, end: 8, inserted: 'XX' }));
    expect(found).toMatchObject({ status: 'rewritten', touched_by: [{ attempt_id: 'a1', version: 1 }] });
    expect(slice).toBe('beXXta');
  });

  it('given a rewrite overlapping its start, then the range spans the replacement and the rest', () => {
    const { found, slice } = given(beta).when(step(1, { start: 4, end: 8, inserted: 'A B' }));
    expect(found.status).toBe('rewritten');
    expect(slice).toBe('A Bta');
  });

  it('given its whole text replaced, then it is rewritten as the replacement', () => {
    const { found, slice } = given(beta).when(step(1, { start: 6, end: 10, inserted: 'BETA' }));
    expect(found.status).toBe('rewritten');
    expect(slice).toBe('BETA');
  });

  it('given its whole text deleted, then it is deleted at the point it stood, and stays deleted', () => {
    const { found } = given(beta).when(
      step(1, { start: 5, end: 11, inserted: '' }),
      step(2, { start: 5, end: 5, inserted: 'new ' }),
      step(3, { start: 0, end: 0, inserted: '>' }),
    );
    expect(found).toEqual({ start: 10, end: 10, status: 'deleted', touched_by: [{ attempt_id: 'a1', version: 1 }] });
  });

  it('given later changes around a rewritten range, then the touchers are named in order', () => {
    const { found, slice } = given(beta).when(
      step(1, { start: 7, end: 8, inserted: 'E' }),
      step(2, { start: 0, end: 0, inserted: '__' }),
      step(3, { start: 10, end: 11, inserted: 't' }),
    );
    expect(found.touched_by.map((t) => t.attempt_id)).toEqual(['a1', 'a3']);
    expect(slice).toBe('bEta');
  });

  it('given a point (empty range) inside a replaced part, then it is rewritten; at its edge it moves', () => {
    expect(given({ start: 8, end: 8 }).when(step(1, { start: 6, end: 10, inserted: 'x' })).found.status).toBe('rewritten');
    expect(given({ start: 6, end: 6 }).when(step(1, { start: 6, end: 6, inserted: 'x' })).found).toMatchObject({ start: 7, status: 'moved' });
  });

  it('property: an untouched range keeps its text, through any history of disjoint edits elsewhere', () => {
    const edit = fc.tuple(fc.nat({ max: 40 }), fc.nat({ max: 4 }), fc.constantFrom('', 'x', 'yy', '😀', 'long text'));
    fc.assert(
      fc.property(fc.array(fc.array(edit, { maxLength: 3 }), { maxLength: 8 }), (history) => {
        let t = 'the quick brown fox jumps over the lazy dog';
        const steps: EffectStep[] = [];
        const range = { start: 10, end: 15 };
        let live = { ...range };
        for (const [n, edits] of history.entries()) {
          const len = Array.from(t).length;
          const effects = normalized(edits.map(([s, l, ins]) => ({ start: Math.min(s, len), end: Math.min(s + l, len), inserted: ins })));
          const s = step(n + 1, ...effects);
          steps.push(s);
          live = relocateRange(live, [s]);
          t = applyEffects(t, effects);
        }
        const found = relocateRange(range, steps);
        expect(found.start).toBe(live.start);
        expect(found.end).toBe(live.end);
        if (found.status === 'unchanged' || found.status === 'moved') expect(Array.from(t).slice(found.start, found.end).join('')).toBe('brown');
      }),
    );
  });
});

/** Edits as one acceptance records them: ascending, disjoint and not touching. */
function normalized(effects: TextEffect[]): TextEffect[] {
  const out: TextEffect[] = [];
  for (const e of [...effects].sort((a, b) => a.start - b.start)) {
    const last = out[out.length - 1];
    if (!last || e.start > last.end) out.push(e);
  }
  return out;
}

describe('invertEffects', () => {
  it('given an acceptance, then its inverse applied to its text gives the preimage back, astral text included', () => {
    const preimage = 'a😀bc\ndef 𝄞 ghi';
    const effects = [{ start: 1, end: 2, inserted: 'XYZ' }, { start: 5, end: 8, inserted: '' }, { start: 14, end: 14, inserted: '!' }];
    const after = applyEffects(preimage, effects);
    expect(applyEffects(after, invertEffects(preimage, effects))).toBe(preimage);
  });
});
