import fc from 'fast-check';
import { DiagonalWave, bandRadius, nearMissThreshold } from './banded-levenshtein';
import { codesOf } from './code-point-array';
import { levenshtein } from './near-misses.reference';

describe('near-miss threshold and band radius', () => {
  it.each([
    [0, 1, 1],
    [4, 1, 1],
    [8, 2, 1],
    [12, 3, 2],
    [16, 4, 2],
    [1000, 4, 2],
  ])('%i code points: threshold %i, radius %i', (chars, threshold, radius) => {
    expect(nearMissThreshold(chars)).toBe(threshold);
    expect(bandRadius(nearMissThreshold(chars))).toBe(radius);
  });
});

describe('DiagonalWave', () => {
  it('answers the three window lengths of one start in one evaluation', () => {
    const query = codesOf('abcdefgh');
    const wave = new DiagonalWave(query, codesOf('abcdefgXh'), 2, 1);
    wave.evaluate(0);
    // 'abcdefg' (1 deletion), 'abcdefgX' (1 substitution), 'abcdefgXh' (1 insertion).
    expect(Array.from(wave.distances)).toEqual([1, 1, 1]);
    expect(wave.reachedRow).toBe(8);
    expect(wave.cells()).toBe(8 * 3);
  });

  it('marks windows past the text end or farther than the threshold as threshold + 1', () => {
    const wave = new DiagonalWave(codesOf('abcd'), codesOf('xyzw'), 1, 1);
    wave.evaluate(1);
    expect(Array.from(wave.distances)).toEqual([2, 2, 2]);
    expect(wave.cells()).toBe(3);
  });

  it('is exact within the threshold for every window of length m - 1, m, m + 1', () => {
    const chars = fc.constantFrom('a', 'b', 'c', '\u{1F600}');
    fc.assert(
      fc.property(fc.array(chars, { minLength: 0, maxLength: 30, size: 'max' }), fc.array(chars, { minLength: 0, maxLength: 34, size: 'max' }), (query, text) => {
        const threshold = nearMissThreshold(query.length);
        const wave = new DiagonalWave(codesOf(query.join('')), codesOf(text.join('')), threshold, bandRadius(threshold));
        for (let start = 0; start < text.length; start++) {
          wave.evaluate(start);
          for (let w = 0; w < 3; w++) {
            const length = query.length - 1 + w;
            const exists = length >= 1 && start + length <= text.length;
            const truth = exists ? levenshtein(query, text.slice(start, start + length)) : Number.POSITIVE_INFINITY;
            expect(wave.distances[w]).toBe(truth <= threshold ? truth : threshold + 1);
          }
        }
      }),
      { numRuns: 1500 },
    );
  });
});
