import fc from 'fast-check';
import { FindOccurrencesArgs, findOccurrences, Occurrence, OccurrencesPage } from './find-occurrences';
import { errorOf, value } from '../errors/test-support/checked';

const EMOJI = '\u{1F600}';
const EXT_B = '\u{20000}';

/** Brute force over code points: every start where the needle's code points follow. */
function referenceOccurrences(text: string, needle: string, context: number): Omit<Occurrence, 'occurrence_index'>[] {
  const cps = Array.from(text);
  const n = Array.from(needle).length;
  const out: Omit<Occurrence, 'occurrence_index'>[] = [];
  for (let i = 0; i + n <= cps.length; i++) {
    if (cps.slice(i, i + n).join('') !== needle) continue;
    const before = cps.slice(Math.max(0, i - context), i).join('');
    out.push({ start: i, end: i + n, before, after: cps.slice(i + n, i + n + context).join('') });
  }
  return out;
}

describe('findOccurrences: matching', () => {
  it('lists exact occurrences with code-point spans and context', () => {
    expect(value(findOccurrences('xx abc yy abc', { text: 'abc', context_chars: 2 }))).toEqual({
      occurrence_count: 2,
      returned_count: 2,
      start_occurrence: 1,
      occurrences: [
        { occurrence_index: 1, start: 3, end: 6, before: 'x ', after: ' y' },
        { occurrence_index: 2, start: 10, end: 13, before: 'y ', after: '' },
      ],
      truncated: false,
      next_occurrence_index: null,
    });
  });

  it('counts overlapping occurrences', () => {
    const page = value(findOccurrences('aaaa', { text: 'aa' }));
    expect(page.occurrence_count).toBe(3);
    expect(page.occurrences.map((o) => o.start)).toEqual([0, 1, 2]);
  });

  it('reports no occurrences as an empty final page', () => {
    expect(value(findOccurrences('abc', { text: 'z' }))).toMatchObject({
      occurrence_count: 0,
      returned_count: 0,
      occurrences: [],
      truncated: false,
      next_occurrence_index: null,
    });
  });

  it('canonicalizes CRLF and CR in the search text before comparing', () => {
    expect(value(findOccurrences('a\nb\nc', { text: 'a\r\nb' })).occurrence_count).toBe(1);
    expect(value(findOccurrences('a\nb\nc', { text: 'b\rc' })).occurrences[0]).toMatchObject({ start: 2, end: 5 });
  });

  it('uses code points for astral text and resumes after a whole pair', () => {
    const page = value(findOccurrences(`${EMOJI}${EMOJI}${EMOJI}`, { text: `${EMOJI}${EMOJI}`, context_chars: 1 }));
    expect(page.occurrences).toEqual([
      { occurrence_index: 1, start: 0, end: 2, before: '', after: EMOJI },
      { occurrence_index: 2, start: 1, end: 3, before: EMOJI, after: '' },
    ]);
    const ext = value(findOccurrences(`a${EXT_B}a${EXT_B}a`, { text: 'a', context_chars: 1 }));
    expect(ext.occurrences.map((o) => [o.start, o.before, o.after])).toEqual([
      [0, '', EXT_B],
      [2, EXT_B, EXT_B],
      [4, EXT_B, ''],
    ]);
  });
});

describe('findOccurrences: arguments', () => {
  const many = 'ab'.repeat(500); // 500 occurrences of "a"

  it('defaults context to 40 and clamps it to 400', () => {
    const text = `${'x'.repeat(1000)}N${'y'.repeat(1000)}`;
    const byDefault = value(findOccurrences(text, { text: 'N' })).occurrences[0];
    expect([byDefault.before.length, byDefault.after.length]).toEqual([40, 40]);
    const clamped = value(findOccurrences(text, { text: 'N', context_chars: 5000 })).occurrences[0];
    expect([clamped.before.length, clamped.after.length]).toEqual([400, 400]);
    const none = value(findOccurrences(text, { text: 'N', context_chars: 0 })).occurrences[0];
    expect([none.before, none.after]).toEqual(['', '']);
  });

  it('returns at most 200 and pages with next_occurrence_index', () => {
    const first = value(findOccurrences(many, { text: 'a', max_results: 1000 }));
    expect(first).toMatchObject({ occurrence_count: 500, returned_count: 200, truncated: true, next_occurrence_index: 201 });
    expect(value(findOccurrences(many, { text: 'a' })).returned_count).toBe(200);
    const last = value(findOccurrences(many, { text: 'a', start_occurrence: 401 }));
    expect(last).toMatchObject({ returned_count: 100, truncated: false, next_occurrence_index: null });
    expect(last.occurrences[0]).toMatchObject({ occurrence_index: 401, start: 800 });
  });

  it('answers a start beyond the count with an empty page, not an error', () => {
    expect(value(findOccurrences(many, { text: 'a', start_occurrence: 501 }))).toEqual({
      occurrence_count: 500,
      returned_count: 0,
      start_occurrence: 501,
      occurrences: [],
      truncated: false,
      next_occurrence_index: null,
    });
  });

  it('accepts null for the optional paging sizes', () => {
    const page = value(findOccurrences(many, { text: 'a', start_occurrence: null, max_results: null }));
    expect(page).toMatchObject({ start_occurrence: 1, returned_count: 200 });
  });

  const refusals: [FindOccurrencesArgs, string, string][] = [
    [{ text: '' }, 'empty_text', 'text'],
    [{ text: '\uD800' }, 'invalid_text_encoding', 'text'],
    [{ text: 'a\uDE00' }, 'invalid_text_encoding', 'text'],
    [{ text: 'a', context_chars: -1 }, 'invalid_context_chars', 'context_chars'],
    [{ text: 'a', context_chars: null }, 'invalid_context_chars', 'context_chars'],
    [{ text: 'a', context_chars: 2.5 }, 'invalid_context_chars', 'context_chars'],
    [{ text: 'a', start_occurrence: 0 }, 'invalid_start_occurrence', 'start_occurrence'],
    [{ text: 'a', max_results: 0 }, 'invalid_max_results', 'max_results'],
  ];

  it.each(refusals)('%j → %s', (args, code, argument) => {
    const error = errorOf(findOccurrences('abc', args));
    expect(error).toMatchObject({ status: 'invalid_argument', code, argument });
    expect(error.failure_detail.length).toBeGreaterThan(0);
  });
});

describe('findOccurrences: properties', () => {
  const alphabet = fc.constantFrom('a', 'b', '\n', EMOJI, EXT_B);
  const text = fc.array(alphabet, { maxLength: 60 }).map((p) => p.join(''));
  const needle = fc.array(alphabet, { minLength: 1, maxLength: 3 }).map((p) => p.join(''));

  it('equals a brute-force code-point reference', () => {
    fc.assert(
      fc.property(text, needle, fc.nat(5), (t, n, context) => {
        const page = value(findOccurrences(t, { text: n, context_chars: context }));
        const ref = referenceOccurrences(t, n, context);
        expect(page.occurrence_count).toBe(ref.length);
        expect(page.occurrences.map(({ occurrence_index: _, ...rest }) => rest)).toEqual(ref.slice(0, 200));
      }),
    );
  });

  it('enumerates every occurrence exactly once by following next_occurrence_index', () => {
    fc.assert(
      fc.property(text, needle, fc.integer({ min: 1, max: 7 }), (t, n, max) => {
        const seen: number[] = [];
        let next: number | null = 1;
        while (next !== null) {
          const page: OccurrencesPage = value(findOccurrences(t, { text: n, start_occurrence: next, max_results: max }));
          page.occurrences.forEach((o, i) => expect(o.occurrence_index).toBe(next! + i));
          seen.push(...page.occurrences.map((o) => o.start));
          next = page.next_occurrence_index;
        }
        expect(seen).toEqual(referenceOccurrences(t, n, 0).map((o) => o.start));
      }),
    );
  });
});
