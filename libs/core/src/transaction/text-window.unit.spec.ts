import { headCodePoints, isCodePointBoundary, stepBack, stepForward, tailCodePoints } from './text-window';

describe('text windows', () => {
  const text = 'a\u{1F600}b\u{20000}';

  it('steps by whole code points and clamps at the ends', () => {
    expect(stepForward(text, 0, 2)).toBe(3);
    expect(stepForward(text, 0, 99)).toBe(text.length);
    expect(stepBack(text, text.length, 1)).toBe(4);
    expect(stepBack(text, text.length, 3)).toBe(1);
    expect(stepBack(text, 2, 5)).toBe(0);
  });

  it('takes bounded heads and tails', () => {
    expect(headCodePoints(text, 2)).toEqual({ text: 'a\u{1F600}', truncated: true });
    expect(tailCodePoints(text, 2)).toEqual({ text: 'b\u{20000}', truncated: true });
    expect(headCodePoints(text, 4)).toEqual({ text, truncated: false });
  });

  it('knows surrogate pair boundaries', () => {
    expect(isCodePointBoundary(text, 1)).toBe(true);
    expect(isCodePointBoundary(text, 2)).toBe(false);
    expect(isCodePointBoundary(text, text.length)).toBe(true);
  });
});
