import fc from 'fast-check';
import { graphemeSplits, splitAt } from './grapheme-boundary';

/** UTF-16 index of every code-point offset 0..n of `cps` (a code-point array of one-character strings). */
function unitOffsets(cps: readonly string[]): number[] {
  const out = [0];
  for (const c of cps) out.push(out[out.length - 1] + c.length);
  return out;
}

/** splitAt at code-point offset `p` of `text`. */
function reasonAt(text: string, p: number): string | null {
  return splitAt(text, unitOffsets([...text])[p]);
}

describe('splitAt: each rule', () => {
  it.each([
    ['e\u0301', 1, 'before_combining_mark'], // Mn
    ['\u0915\u0903', 1, 'before_combining_mark'], // Mc
    ['a\u20dd', 1, 'before_combining_mark'], // Me
    ['\u{1F468}\u200d\u{1F469}', 1, 'before_zwj'],
    ['\u{1F468}\u200d\u{1F469}', 2, 'after_zwj'],
    ['\u2764\ufe0f', 1, 'before_variation_selector'],
    ['\u8fbb\u{E0100}', 1, 'before_variation_selector'],
    ['\u{1F44D}\u{1F3FD}', 1, 'before_emoji_modifier'],
    ['\u{1F3F4}\u{E0067}\u{E007F}', 1, 'before_tag'],
    ['\u{1F3F4}\u{E0067}\u{E007F}', 2, 'before_tag'],
    ['\u{1F1FA}\u{1F1F8}', 1, 'regional_indicator_pair'],
    ['\u{1F1FA}\u{1F1F8}\u{1F1EB}\u{1F1F7}', 3, 'regional_indicator_pair'],
    ['\u1100\u1161\u11a8', 1, 'hangul_jamo_sequence'], // L V
    ['\u1100\u1161\u11a8', 2, 'hangul_jamo_sequence'], // V T
    ['\u1100\u1100', 1, 'hangul_jamo_sequence'], // L L
    ['\ua960\uac00', 1, 'hangul_jamo_sequence'], // L LV
    ['\u1100\uac01', 1, 'hangul_jamo_sequence'], // L LVT
    ['\uac00\u1161', 1, 'hangul_jamo_sequence'], // LV V
    ['\uac00\ud7cb', 1, 'hangul_jamo_sequence'], // LV T
    ['\uac01\u11a8', 1, 'hangul_jamo_sequence'], // LVT T
    ['\u11a8\u11a8', 1, 'hangul_jamo_sequence'], // T T
    ['\ud7b0\u1161', 1, 'hangul_jamo_sequence'], // V V
  ])('%j at %i: %s', (text, p, reason) => {
    expect(reasonAt(text, p)).toBe(reason);
  });

  it.each([
    ['ab', 1],
    ['\u{1F1FA}\u{1F1F8}\u{1F1EB}\u{1F1F7}', 2], // between two flags
    ['a\u{1F1FA}', 1],
    ['\uac01\u1161', 1], // LVT V
    ['\u11a8\u1100', 1], // T L
    ['\uac00\uac00', 1], // LV LV
    ['\u{1F600}\u{1F600}', 1],
    ['\u{1F44D}\u{1F3FD}x', 2],
  ])('%j at %i does not split', (text, p) => {
    expect(reasonAt(text, p)).toBeNull();
  });

  it('never splits at 0 or at the end', () => {
    expect(splitAt('\u0301\u200d', 0)).toBeNull();
    expect(splitAt('\u200d', 1)).toBeNull();
    expect(splitAt('', 0)).toBeNull();
  });
});

describe('graphemeSplits', () => {
  it('judges an insertion once, at its single point', () => {
    const text = '\u{1F600}e\u0301z';
    expect(graphemeSplits(text, 3, 3, 2, 2)).toEqual([{ boundary: 'insertion', offset: 2, reason: 'before_combining_mark' }]);
  });

  it('judges start and end of a span in the buffer before the change', () => {
    // Deleting the mark of "e\u0301" alone cuts before it (start); replacing "e\u0301" whole does not warn.
    expect(graphemeSplits('e\u0301x', 1, 2, 1, 2)).toEqual([{ boundary: 'start', offset: 1, reason: 'before_combining_mark' }]);
    expect(graphemeSplits('e\u0301x', 0, 2, 0, 2)).toEqual([]);
    const flags = '\u{1F1FA}\u{1F1F8}\u{1F1EB}\u{1F1F7}';
    expect(graphemeSplits(flags, 2, 6, 1, 3)).toEqual([
      { boundary: 'start', offset: 1, reason: 'regional_indicator_pair' },
      { boundary: 'end', offset: 3, reason: 'regional_indicator_pair' },
    ]);
  });
});

// Alphabet: ASCII, LF, every extender kind, ZWJ sequences, regional indicators, Hangul jamo and syllables, astral.
const ALPHABET = [
  'a', 'b', ' ', '\n', 'e', '\u0301', '\u0903', '\u20dd', '\u200d', '\ufe0f', '\u{E0100}', '\u{1F44D}', '\u{1F3FD}',
  '\u{1F3F4}', '\u{E0067}', '\u{E007F}', '\u{1F1FA}', '\u{1F1F8}', '\u1100', '\u1161', '\u11a8', '\uac00', '\uac01',
  '\ua960', '\ud7b0', '\ud7cb', '\u{1F600}', '\u{20000}', '\u2764',
];
const cpArray = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 16 });

/** Independent reference over code-point numbers, straight from the rule's wording. */
function referenceSplit(cps: readonly number[], p: number): boolean {
  if (p <= 0 || p >= cps.length) return false;
  const [prev, next] = [cps[p - 1], cps[p]];
  const within = (c: number, ranges: Array<[number, number]>) => ranges.some(([lo, hi]) => c >= lo && c <= hi);
  const extender =
    /\p{M}/u.test(String.fromCodePoint(next)) ||
    within(next, [[0x200d, 0x200d], [0xfe00, 0xfe0f], [0xe0100, 0xe01ef], [0x1f3fb, 0x1f3ff], [0xe0020, 0xe007f]]);
  if (extender || prev === 0x200d) return true;
  const ri = (c: number) => within(c, [[0x1f1e6, 0x1f1ff]]);
  let run = 0;
  while (run < p && ri(cps[p - 1 - run])) run++;
  if (ri(next) && run % 2 === 1) return true;
  const kind = (c: number): string =>
    within(c, [[0x1100, 0x115f], [0xa960, 0xa97c]]) ? 'L'
      : within(c, [[0x1160, 0x11a7], [0xd7b0, 0xd7c6]]) ? 'V'
        : within(c, [[0x11a8, 0x11ff], [0xd7cb, 0xd7fb]]) ? 'T'
          : within(c, [[0xac00, 0xd7a3]]) ? ((c - 0xac00) % 28 === 0 ? 'LV' : 'LVT')
            : '-';
  const joins: Record<string, string[]> = { L: ['L', 'V', 'LV', 'LVT'], V: ['V', 'T'], LV: ['V', 'T'], T: ['T'], LVT: ['T'] };
  return (joins[kind(prev)] ?? []).includes(kind(next));
}

describe('splitAt: properties', () => {
  it('fires exactly where the reference over code-point arrays says', () => {
    fc.assert(
      fc.property(cpArray, (cps) => {
        const text = cps.join('');
        const numbers = cps.map((c) => c.codePointAt(0) as number);
        unitOffsets(cps).forEach((unit, p) => {
          expect(splitAt(text, unit) !== null).toBe(referenceSplit(numbers, p));
        });
      }),
      { numRuns: 500 },
    );
  });

  it('flags every position Intl.Segmenter keeps inside a grapheme cluster (conservative)', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    fc.assert(
      fc.property(cpArray, (cps) => {
        const text = cps.join('');
        const breaks = new Set([...segmenter.segment(text)].map((s) => s.index));
        for (const unit of unitOffsets(cps).slice(1, -1)) {
          if (!breaks.has(unit)) expect({ unit, text, reason: splitAt(text, unit) }).not.toMatchObject({ reason: null });
        }
      }),
      { numRuns: 500 },
    );
  });
});
