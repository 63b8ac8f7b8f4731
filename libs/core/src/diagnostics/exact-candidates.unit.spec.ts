import fc from 'fast-check';
import { asciiJson } from '../transaction/record-codec';
import { EXACT_CANDIDATES_BYTE_BUDGET, buildExactCandidates, withObservedTarget } from './exact-candidates';

const opts = { bufferStage: 'canonical_target' as const, priorChanges: 0, observedVersion: 7, observedHash: 'f'.repeat(64) };

function bruteStarts(cps: string[], needle: string[]): number[] {
  const starts: number[] = [];
  for (let i = 0; i + needle.length <= cps.length; i++) if (needle.every((c, j) => cps[i + j] === c)) starts.push(i);
  return starts;
}

describe('buildExactCandidates', () => {
  it('keeps the first five occurrences with 20 code points of context', () => {
    const buffer = `${'x'.repeat(30)}${'ab '.repeat(8)}`;
    const starts = Array.from({ length: 8 }, (_, i) => 30 + 3 * i);
    const result = buildExactCandidates(buffer, 'ab', starts, opts);
    expect(result).toMatchObject({
      kind: 'exact_occurrences',
      occurrence_count: 8,
      returned_count: 5,
      truncated: true,
      next_occurrence_index: 6,
      buffer_stage: 'canonical_target',
      prior_changes: 0,
      observed_target_version: 7,
    });
    expect(result.candidates[0]).toEqual({
      occurrence_index: 1,
      start: 30,
      end: 32,
      before: 'x'.repeat(20),
      match_preview: 'ab',
      match_truncated: false,
      after: ' ab ab ab ab ab ab a',
    });
    expect(result.candidates.map((c) => c.occurrence_index)).toEqual([1, 2, 3, 4, 5]);
  });

  it('accepts only the first starts with the total count given separately', () => {
    const result = buildExactCandidates('aaaa', 'aa', [0, 1], { ...opts, occurrenceCount: 3 });
    expect(result).toMatchObject({ occurrence_count: 3, returned_count: 2, truncated: true, next_occurrence_index: 3 });
  });

  it('previews at most 64 code points of a long match', () => {
    const match = '\u{1F600}'.repeat(70);
    const result = buildExactCandidates(`a${match}`, match, [1], opts);
    expect(result.candidates[0]).toMatchObject({ start: 1, end: 71, match_preview: '\u{1F600}'.repeat(64), match_truncated: true, before: 'a' });
    expect(result.truncated).toBe(false);
    expect(result.next_occurrence_index).toBeNull();
  });

  it('stays within 8,192 ASCII-escaped bytes for five worst-case candidates', () => {
    const match = '\u{20000}'.repeat(200);
    const context = '\u{1F600}'.repeat(20);
    const buffer = Array.from({ length: 6 }, () => `${context}${match}`).join('') + context;
    const starts = Array.from({ length: 6 }, (_, i) => 20 + i * 220);
    const result = buildExactCandidates(buffer, match, starts, opts);
    expect(result.returned_count).toBe(5);
    expect(asciiJson({ exact_candidates: result }).length).toBeLessThanOrEqual(EXACT_CANDIDATES_BYTE_BUDGET);
  });

  it('drops trailing candidates to fit the budget and says where to continue', () => {
    const buffer = 'ab '.repeat(10);
    const starts = Array.from({ length: 10 }, (_, i) => 3 * i);
    const full = buildExactCandidates(buffer, 'ab', starts, opts);
    const threeBytes = asciiJson({ exact_candidates: { ...full, candidates: full.candidates.slice(0, 3), returned_count: 3 } }).length;
    const result = buildExactCandidates(buffer, 'ab', starts, { ...opts, byteBudget: threeBytes + 10 });
    expect(result).toMatchObject({ occurrence_count: 10, returned_count: 3, truncated: true, next_occurrence_index: 4 });
    expect(asciiJson({ exact_candidates: result }).length).toBeLessThanOrEqual(threeBytes + 10);
    const none = buildExactCandidates(buffer, 'ab', starts, { ...opts, byteBudget: 10 });
    expect(none).toMatchObject({ returned_count: 0, candidates: [], truncated: true, next_occurrence_index: 1 });
  });

  it('measures unknown observed identity at its largest, so filling it in stays within budget', () => {
    const match = '\u{20000}'.repeat(64);
    const buffer = Array.from({ length: 6 }, () => `${'\u{1F600}'.repeat(20)}${match}`).join('');
    const starts = Array.from({ length: 6 }, (_, i) => 20 + i * 84);
    const unknown = buildExactCandidates(buffer, match, starts, { ...opts, observedVersion: null, observedHash: null });
    const filled = withObservedTarget(unknown, 123456, 'a'.repeat(64));
    expect(asciiJson({ exact_candidates: filled }).length).toBeLessThanOrEqual(EXACT_CANDIDATES_BYTE_BUDGET);
    expect(unknown.returned_count).toBe(buildExactCandidates(buffer, match, starts, opts).returned_count);
  });

  it('matches a code-point array reference for random texts', () => {
    const alphabet = fc.constantFrom('a', 'b', '\n', '\u00e9', '\u{1F600}', '\u{20000}');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 60 }), fc.array(alphabet, { minLength: 1, maxLength: 3 }), (cps, needle) => {
        const starts = bruteStarts(cps, needle);
        const result = buildExactCandidates(cps.join(''), needle.join(''), starts, opts);
        expect(result.occurrence_count).toBe(starts.length);
        result.candidates.forEach((c, i) => {
          const s = starts[i];
          expect(c).toEqual({
            occurrence_index: i + 1,
            start: s,
            end: s + needle.length,
            before: cps.slice(Math.max(0, s - 20), s).join(''),
            match_preview: needle.join(''),
            match_truncated: false,
            after: cps.slice(s + needle.length, s + needle.length + 20).join(''),
          });
        });
        expect(result.returned_count).toBe(Math.min(5, starts.length));
      }),
    );
  });
});
