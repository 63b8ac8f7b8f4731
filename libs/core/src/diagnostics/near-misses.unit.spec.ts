import fc from 'fast-check';
import { asciiJson } from '../transaction/record-codec';
import {
  COMPARISON_CELL_CAP,
  NEAR_MISSES_BYTE_BUDGET,
  NEAR_MISS_HINT,
  computeNearMisses,
  nearMissQuery,
  type NearMisses,
} from './near-misses';
import { referenceNearMisses } from './near-misses.reference';

const fresh = { scanSource: 'failing_buffer' as const };

function windowsOf(result: NearMisses): { start: number; end: number; distance: number }[] {
  return result.candidates.map(({ start, end, distance }) => ({ start, end, distance }));
}

function cps(text: string): string[] {
  return Array.from(text);
}

describe('computeNearMisses', () => {
  it.each([
    [1, 1, 1],
    [3, 1, 1],
    [7, 1, 1],
    [8, 2, 1],
    [11, 2, 1],
    [12, 3, 2],
    [15, 3, 2],
    [16, 4, 2],
    [200, 4, 2],
  ])('a %i-code-point query has threshold %i and band radius %i', (chars, threshold, radius) => {
    const result = computeNearMisses('', 'q'.repeat(chars), fresh);
    expect(result).toMatchObject({ query_chars: chars, threshold, band_radius: radius });
  });

  it('finds a one-substitution near miss with 16 code points of context per side', () => {
    const buffer = `${'.'.repeat(20)}hello wurld${','.repeat(20)}`;
    const result = computeNearMisses(buffer, 'hello world', fresh);
    expect(result.candidates[0]).toEqual({
      start: 20,
      end: 31,
      distance: 1,
      text: 'hello wurld',
      text_truncated: false,
      before: '.'.repeat(16),
      after: ','.repeat(16),
    });
    expect(result).toMatchObject({
      kind: 'near_misses',
      scan_source: 'failing_buffer',
      scanned_start: 0,
      scanned_end: 51 - 10 + 1,
      scope_truncated: false,
      work_budget_exhausted: false,
      hint: null,
    });
  });

  it('skips windows overlapping a chosen one and keeps at most three locations', () => {
    // Each "abcdefgx" block holds windows at distance 1 of lengths 7, 8 and 9 that all overlap.
    const buffer = ['abcdefgx', 'abcdefgy', 'abcdefgz', 'abcdefgw'].join('--');
    const result = computeNearMisses(buffer, 'abcdefgh', fresh);
    expect(windowsOf(result)).toEqual([
      { start: 0, end: 7, distance: 1 },
      { start: 10, end: 17, distance: 1 },
      { start: 20, end: 27, distance: 1 },
    ]);
    expect(result).toMatchObject({ returned_count: 3, candidates_truncated: true, truncated: true });
  });

  it('prefers a lower distance over an earlier start', () => {
    const result = computeNearMisses('xbcdxfgh----abcdefgX', 'abcdefgh', fresh);
    expect(windowsOf(result)[0]).toEqual({ start: 12, end: 19, distance: 1 });
  });

  it('returns the hint naming palimpsest_find_occurrences when nothing is close', () => {
    const result = computeNearMisses('nothing similar here at all', 'zebra crossing', fresh);
    expect(result).toMatchObject({ candidates: [], returned_count: 0, truncated: false, hint: NEAR_MISS_HINT });
    expect(result.hint).toContain('palimpsest_find_occurrences');
  });

  it('scans only the first 65,536 code points', () => {
    const buffer = `${'x'.repeat(65_536)}hello wurld`;
    const result = computeNearMisses(buffer, 'hello world', fresh);
    expect(result).toMatchObject({ candidates: [], scanned_end: 65_536 - 10 + 1, scope_truncated: true, truncated: true });
    // No piece of the query occurs, so the filter proves every start empty without a single cell.
    expect(result.comparison_cells).toBe(0);
    const inside = computeNearMisses(`${'x'.repeat(65_525)}hello wurld`, 'hello world', fresh);
    expect(windowsOf(inside)).toEqual([{ start: 65_525, end: 65_536, distance: 1 }]);
    expect(inside.scope_truncated).toBe(false);
  });

  it('stops at the cell cap on homogeneous text, keeping the exact ranking of the scanned range', () => {
    const buffer = 'a'.repeat(65_536);
    const result = computeNearMisses(buffer, 'aaaaaaab', fresh);
    // Every start reaches the last of 8 rows with band width 3: 24 cells each.
    const committed = Math.floor(COMPARISON_CELL_CAP / 24);
    expect(result).toMatchObject({
      comparison_cells: committed * 24,
      scanned_start: 0,
      scanned_end: committed,
      scope_truncated: true,
      candidates_truncated: true,
      work_budget_exhausted: false,
    });
    const reference = referenceNearMisses(buffer, 'aaaaaaab', result.scanned_end);
    expect(windowsOf(result)).toEqual(reference.windows);
    expect(result.candidates_truncated).toBe(reference.more);
  });

  it('evaluates even the longest possible query within the cap (work_budget_exhausted stays false)', () => {
    // A window needs m - 1 <= 65,536, so one start costs at most 65,537 * 5 cells: below the cap.
    const buffer = 'ab'.repeat(32_768);
    const result = computeNearMisses(buffer, `${buffer}a`, fresh);
    expect(result).toMatchObject({ comparison_cells: 65_537 * 5, scanned_end: 1, work_budget_exhausted: false });
    expect(result.candidates).toHaveLength(1);
    expect(result.candidates[0]).toMatchObject({ start: 0, end: 65_536, distance: 1, text_truncated: true, text: 'ab'.repeat(32) + 'a' });
  });

  it('counts offsets in code points around astral characters', () => {
    const buffer = '\u{1F600}\u{1F601}x\u{1F602}hello wurld\u{1F603}';
    const result = computeNearMisses(buffer, 'hello world', fresh);
    expect(result.candidates[0]).toMatchObject({
      start: 4,
      end: 15,
      text: 'hello wurld',
      before: '\u{1F600}\u{1F601}x\u{1F602}',
      after: '\u{1F603}',
    });
    const astralQuery = computeNearMisses('ab\u{1F600}\u{1F601}\u{1F602}\u{1F604}c', '\u{1F600}\u{1F601}\u{1F602}\u{1F603}', fresh);
    // Dropping the last code point ties at distance 1 and ends first.
    expect(windowsOf(astralQuery)[0]).toEqual({ start: 2, end: 5, distance: 1 });
  });

  it('places a stored failure context in failing-buffer coordinates', () => {
    const result = computeNearMisses('..hello wurld..', 'hello world', {
      scanSource: 'stored_failure_context',
      bufferOffset: 1000,
      failingBufferChars: 5000,
    });
    expect(result.candidates[0]).toMatchObject({ start: 1002, end: 1013, before: '..', after: '..' });
    expect(result).toMatchObject({ scan_source: 'stored_failure_context', scanned_start: 1000, scanned_end: 1006, scope_truncated: true });
    const whole = computeNearMisses('hello wurld', 'hello world', { scanSource: 'stored_failure_context', failingBufferChars: 11 });
    expect(whole.scope_truncated).toBe(false);
  });

  it('canonicalizes the query before searching', () => {
    const result = computeNearMisses('line one\nline twu', 'line one\r\nline two', fresh);
    expect(result.query_chars).toBe(17);
    // 'line one\nline tw' (one deletion) ties with the substitution and ends first.
    expect(windowsOf(result)[0]).toEqual({ start: 0, end: 16, distance: 1 });
  });
});

describe('nearMissQuery', () => {
  it('persists the canonical query up to 64 raw code points', () => {
    expect(nearMissQuery('a\r\nb')).toEqual({ near_miss_query: 'a\nb' });
    expect(nearMissQuery('\u{1F600}'.repeat(64))).toEqual({ near_miss_query: '\u{1F600}'.repeat(64) });
    expect(nearMissQuery('\u{1F600}'.repeat(65))).toEqual({ omission_reason: 'match_too_large' });
    // 33 CRLF pairs are 66 raw code points even though the canonical text has 33.
    expect(nearMissQuery('\r\n'.repeat(33))).toEqual({ omission_reason: 'match_too_large' });
    expect(asciiJson(nearMissQuery('\u{1F600}'.repeat(64))).length).toBeLessThanOrEqual(1024);
  });
});

function textOf(chars: fc.Arbitrary<string>, min: number, max: number): fc.Arbitrary<string> {
  return fc.array(chars, { minLength: min, maxLength: max, size: 'max' }).map((list) => list.join(''));
}

/**
 * Mostly queries cut from the buffer and lightly edited (so near misses at every distance are
 * frequent), sometimes unrelated random queries; lengths span every threshold.
 */
function bufferAndQuery(chars: fc.Arbitrary<string>, bufferMax: number, queryMax: number) {
  const edit = fc.tuple(fc.nat(), fc.constantFrom('insert', 'delete', 'substitute'), chars);
  return fc
    .record({
      buffer: textOf(chars, 0, bufferMax),
      random: textOf(chars, 1, queryMax),
      from: fc.nat(),
      length: fc.integer({ min: 1, max: queryMax }),
      edits: fc.array(edit, { maxLength: 5 }),
      cut: fc.integer({ min: 0, max: 4 }).map((n) => n > 0),
    })
    .map(({ buffer, random, from, length, edits, cut }) => {
      const list = cps(buffer);
      const at = list.length > 0 ? from % list.length : 0;
      let query = cut && list.length > 0 ? list.slice(at, at + length) : cps(random);
      for (const [pos, kind, ch] of edits) {
        const copy = [...query];
        const i = pos % (copy.length + (kind === 'insert' ? 1 : 0));
        copy.splice(i, kind === 'insert' ? 0 : 1, ...(kind === 'delete' ? [] : [ch]));
        if (copy.length > 0) query = copy;
      }
      return { buffer, query: query.join('') };
    });
}

const small = fc.constantFrom('a', 'b', 'c', '\u{1F600}', '\u00e9');
/** A lone high surrogate counts as one code point, like CodePointIndex, and forces the KMP path. */
const wide = fc.constantFrom('\u{1F600}', '\u{20000}', '\u0001', 'a', '"', '\ud800');

describe('computeNearMisses properties', () => {
  it('ranks exactly like the unpruned brute-force search', () => {
    fc.assert(
      fc.property(bufferAndQuery(small, 160, 40), ({ buffer, query }) => {
        const result = computeNearMisses(buffer, query, fresh);
        const reference = referenceNearMisses(buffer, query);
        expect(windowsOf(result)).toEqual(reference.windows);
        expect(result.candidates_truncated).toBe(reference.more);
        expect(result.comparison_cells).toBeLessThanOrEqual(COMPARISON_CELL_CAP);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps {near_misses} within 8,192 ASCII-escaped bytes, offsets in code points', () => {
    fc.assert(
      fc.property(bufferAndQuery(wide, 900, 120), ({ buffer, query }) => {
        const result = computeNearMisses(buffer, query, fresh);
        if (cps(query).length <= 40) expect(windowsOf(result)).toEqual(referenceNearMisses(buffer, query).windows);
        expect(asciiJson({ near_misses: result }).length).toBeLessThanOrEqual(NEAR_MISSES_BYTE_BUDGET);
        expect(result.comparison_cells).toBeLessThanOrEqual(COMPARISON_CELL_CAP);
        const list = cps(buffer);
        for (const c of result.candidates) {
          expect(c.text).toBe(list.slice(c.start, Math.min(c.end, c.start + 65)).join(''));
          expect(c.text_truncated).toBe(c.end - c.start > 65);
          expect(c.before).toBe(list.slice(Math.max(0, c.start - 16), c.start).join(''));
          expect(c.after).toBe(list.slice(c.end, c.end + 16).join(''));
        }
      }),
      { numRuns: 300 },
    );
  });
});
