import fc from 'fast-check';
import { isBmpOnly } from '../text/code-points';
import {
  advanceCodePoints,
  countCodePoints,
  nextCodePoint,
  pairAt,
  retreatCodePoints,
} from './code-point-walk';

const EMOJI = '\u{1F600}';
const EXT_B = '\u{20000}';
const mixedText = fc
  .array(fc.constantFrom('a', 'é', '\n', EMOJI, EXT_B, '中'), { maxLength: 40 })
  .map((parts) => parts.join(''));

/** Unit offset of each code-point boundary, by the reference Array.from split. */
function boundaries(text: string): number[] {
  const out = [0];
  for (const ch of Array.from(text)) out.push(out[out.length - 1] + ch.length);
  return out;
}

describe('code-point walk', () => {
  const text = `a${EMOJI}b${EXT_B}`; // units: a=0, 😀=1..2, b=3, 𠀀=4..5

  it('recognises a surrogate pair only at its high half', () => {
    expect(pairAt(text, 1)).toBe(true);
    expect(pairAt(text, 2)).toBe(false);
    expect(nextCodePoint(text, 1)).toBe(3);
    expect(nextCodePoint(text, 0)).toBe(1);
  });

  it('counts, advances and retreats in code points on astral text', () => {
    expect(countCodePoints(text, 0, text.length, false)).toBe(4);
    expect(advanceCodePoints(text, 0, 2, false)).toBe(3);
    expect(advanceCodePoints(text, 0, 99, false)).toBe(text.length);
    expect(retreatCodePoints(text, text.length, 1, false)).toBe(4);
    expect(retreatCodePoints(text, 3, 1, false)).toBe(1);
    expect(retreatCodePoints(text, 3, 99, false)).toBe(0);
  });

  it('takes the identity path on BMP text, clamped to the text', () => {
    expect(countCodePoints('abcdef', 1, 4, true)).toBe(3);
    expect(advanceCodePoints('abc', 1, 10, true)).toBe(3);
    expect(retreatCodePoints('abc', 1, 10, true)).toBe(0);
  });

  it('agrees with Array.from on every boundary (property)', () => {
    fc.assert(
      fc.property(mixedText, fc.nat(45), fc.nat(45), (t, i, n) => {
        const b = boundaries(t);
        const from = b[Math.min(i, b.length - 1)];
        const cpFrom = b.indexOf(from);
        const bmp = isBmpOnly(t);
        expect(advanceCodePoints(t, from, n, bmp)).toBe(b[Math.min(cpFrom + n, b.length - 1)]);
        expect(retreatCodePoints(t, from, n, bmp)).toBe(b[Math.max(cpFrom - n, 0)]);
        expect(countCodePoints(t, from, t.length, bmp)).toBe(b.length - 1 - cpFrom);
      }),
    );
  });
});
