import fc from 'fast-check';
import { hasLoneSurrogate } from '../text/code-points';
import { readTargetSlice, TargetSlice } from './read-target';
import { errorOf, value } from '../errors/test-support/checked';

const EMOJI = '\u{1F600}';
const EXT_B = '\u{20000}';
const mixedText = fc
  .array(fc.constantFrom('a', 'b', '\n', 'é', EMOJI, EXT_B), { maxLength: 60 })
  .map((parts) => parts.join(''));

describe('readTargetSlice', () => {
  const long = 'x'.repeat(10_000);

  it('defaults to start 0 and 4,000 code points, with a continuation', () => {
    expect(value(readTargetSlice(long, {}))).toEqual({
      start: 0,
      end: 4000,
      text: 'x'.repeat(4000),
      total_chars: 10_000,
      truncated: true,
      next_start: 4000,
    });
    expect(value(readTargetSlice(long, { start: null, length: null })).end).toBe(4000);
  });

  it('clamps length to 8,000', () => {
    expect(value(readTargetSlice(long, { length: 9000 })).end).toBe(8000);
    expect(value(readTargetSlice(long, { length: 8000 })).end).toBe(8000);
  });

  it('refuses a length below 1', () => {
    for (const length of [0, -1]) {
      expect(errorOf(readTargetSlice(long, { length }))).toMatchObject({ code: 'invalid_length', argument: 'length' });
    }
  });

  it('reads the tail without a continuation', () => {
    expect(value(readTargetSlice(long, { start: 9990, length: 50 }))).toMatchObject({
      start: 9990,
      end: 10_000,
      truncated: false,
      next_start: null,
    });
  });

  it('returns an empty final slice at start == total_chars', () => {
    expect(value(readTargetSlice('abc', { start: 3 }))).toEqual({
      start: 3,
      end: 3,
      text: '',
      total_chars: 3,
      truncated: false,
      next_start: null,
    });
    expect(value(readTargetSlice('', {}))).toMatchObject({ start: 0, end: 0, text: '', total_chars: 0 });
  });

  it('refuses a start past the end or below zero', () => {
    expect(errorOf(readTargetSlice('abc', { start: 4 }))).toMatchObject({
      status: 'invalid_argument',
      code: 'start_out_of_range',
      argument: 'start',
      total_chars: 3,
    });
    expect(errorOf(readTargetSlice('abc', { start: -1 }))).toMatchObject({ code: 'start_out_of_range' });
    expect(errorOf(readTargetSlice('abc', { start: 1.5 }))).toMatchObject({ code: 'start_out_of_range' });
  });

  it('counts astral characters as one code point each', () => {
    const text = `${EMOJI}a${EXT_B}b`;
    expect(value(readTargetSlice(text, { start: 1, length: 2 }))).toEqual({
      start: 1,
      end: 3,
      text: `a${EXT_B}`,
      total_chars: 4,
      truncated: true,
      next_start: 3,
    });
    expect(value(readTargetSlice(text, { start: 0, length: 1 })).text).toBe(EMOJI);
    expect(errorOf(readTargetSlice(text, { start: 5 }))).toMatchObject({ total_chars: 4 });
  });

  it('reads the end of a 1 MB BMP target directly', () => {
    const big = 'abcdefghij'.repeat(100_000);
    const page = value(readTargetSlice(big, { start: 999_995, length: 100 }));
    expect(page).toMatchObject({ start: 999_995, end: 1_000_000, text: 'fghij', truncated: false });
  });

  it('matches a code-point reference slice and never splits a pair (property)', () => {
    fc.assert(
      fc.property(mixedText, fc.nat(70), fc.integer({ min: 1, max: 70 }), (text, s, length) => {
        const cps = Array.from(text);
        const start = Math.min(s, cps.length);
        const page = value(readTargetSlice(text, { start, length }));
        expect(page.text).toBe(cps.slice(start, start + length).join(''));
        expect(page.end).toBe(Math.min(start + length, cps.length));
        expect(hasLoneSurrogate(page.text)).toBe(false);
      }),
    );
  });

  it('reproduces the text by following next_start (property)', () => {
    fc.assert(
      fc.property(mixedText, fc.integer({ min: 1, max: 9 }), (text, length) => {
        let out = '';
        let start: number | null = 0;
        while (start !== null) {
          const page: TargetSlice = value(readTargetSlice(text, { start, length }));
          out += page.text;
          start = page.next_start;
        }
        expect(out).toBe(text);
      }),
    );
  });
});
