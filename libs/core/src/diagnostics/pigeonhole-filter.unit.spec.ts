import fc from 'fast-check';
import { bandRadius, nearMissThreshold } from './banded-levenshtein';
import { codesOf, scanTextOf } from './code-point-array';
import { candidateWindowStarts, needlePieces } from './pigeonhole-filter';
import { levenshtein } from './near-misses.reference';

describe('needlePieces', () => {
  it('cuts threshold + 1 contiguous, near-equal pieces', () => {
    expect(needlePieces(8, 2)).toEqual([
      { offset: 0, length: 2 },
      { offset: 2, length: 3 },
      { offset: 5, length: 3 },
    ]);
    expect(needlePieces(17, 4)?.map((p) => p.length)).toEqual([3, 3, 4, 3, 4]);
  });

  it('gives up when a piece would be empty', () => {
    expect(needlePieces(1, 1)).toBeNull();
    expect(needlePieces(0, 1)).toBeNull();
    expect(needlePieces(2, 1)).toEqual([
      { offset: 0, length: 1 },
      { offset: 1, length: 1 },
    ]);
  });
});

describe('candidateWindowStarts', () => {
  it('keeps only starts near a piece occurrence', () => {
    const text = 'xxxxxxxxxxabcdxxxxxxxxxx';
    const query = codesOf('abcd');
    const marks = candidateWindowStarts(scanTextOf(text), query, 1, 1, text.length - 2);
    const kept = Array.from(marks ?? []).flatMap((m, s) => (m ? [s] : []));
    // 'ab' at 10 (offset 0) and 'cd' at 12 (offset 2) both allow starts 9..11.
    expect(kept).toEqual([9, 10, 11]);
  });

  it('never drops a start that holds a window within the threshold (native and KMP search agree)', () => {
    const chars = fc.constantFrom('a', 'b', 'c', '\u{1F600}');
    fc.assert(
      fc.property(
        fc.array(chars, { minLength: 1, maxLength: 24, size: 'max' }),
        fc.array(chars, { minLength: 0, maxLength: 60, size: 'max' }),
        (query, text) => {
          const m = query.length;
          const threshold = nearMissThreshold(m);
          const radius = bandRadius(threshold);
          const shortest = Math.max(1, m - 1);
          const startCount = Math.max(0, text.length - shortest + 1);
          const scan = scanTextOf(text.join(''));
          const needle = codesOf(query.join(''));
          const marks = candidateWindowStarts(scan, needle, threshold, radius, startCount);
          const kmp = candidateWindowStarts({ ...scan, searchText: null }, needle, threshold, radius, startCount);
          expect(marks).toEqual(kmp);
          if (marks === null) return;
          for (let s = 0; s < startCount; s++) {
            if (marks[s]) continue;
            for (let length = shortest; length <= m + 1 && s + length <= text.length; length++) {
              expect(levenshtein(query, text.slice(s, s + length))).toBeGreaterThan(threshold);
            }
          }
        },
      ),
      { numRuns: 1500 },
    );
  });
});
