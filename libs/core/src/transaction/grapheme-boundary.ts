/**
 * grapheme_boundary_split: a deterministic, conservative approximation of UAX #29 extended grapheme
 * clusters, judged at the points where a change cuts its buffer.
 *
 * The rule. A change replaces code points [start, end) of the sequential buffer it is applied to.
 * It cuts that buffer at start and at end (at one point when start == end: an insertion). Each cut
 * is judged by the two code points on either side of it in that buffer, before the change applies:
 * the cut splits a likely cluster when the code point after it cannot begin a cluster (a combining
 * mark, ZWJ, variation selector, emoji modifier or tag character), when the code point before it is
 * a ZWJ, when it falls between the two halves of a regional-indicator pair, or when it falls inside
 * a Hangul jamo sequence. Cuts at 0 and at the buffer end never split.
 *
 * Judging the old buffer, not the new one, is what makes both seed cases fire: an offset computed
 * in UTF-16 units lands past an astral character, often just before a combining mark or modifier;
 * and a deliberate edit of a modifier or mark alone cuts just before it. Replacing a whole cluster
 * cuts at its edges and does not warn, and neither does appending a mark to a base character,
 * since that cut lies between the base and whatever followed it. Canonical text has no CR, so there
 * is no CR LF rule.
 */

export type BoundaryKind = 'start' | 'end' | 'insertion';

export type SplitReason =
  | 'before_combining_mark'
  | 'before_zwj'
  | 'before_variation_selector'
  | 'before_emoji_modifier'
  | 'before_tag'
  | 'after_zwj'
  | 'regional_indicator_pair'
  | 'hangul_jamo_sequence';

/** One cut of a change that falls inside a likely grapheme cluster; offset is a sequential code-point offset. */
export interface GraphemeSplit {
  boundary: BoundaryKind;
  offset: number;
  reason: SplitReason;
}

export const SPLIT_REASON_TEXT: Readonly<Record<SplitReason, string>> = {
  before_combining_mark: 'it lies just before a combining mark',
  before_zwj: 'it lies just before a zero-width joiner',
  before_variation_selector: 'it lies just before a variation selector',
  before_emoji_modifier: 'it lies just before an emoji modifier',
  before_tag: 'it lies just before a tag character',
  after_zwj: 'it lies just after a zero-width joiner',
  regional_indicator_pair: 'it separates the two regional indicators of a flag',
  hangul_jamo_sequence: 'it lies inside a Hangul jamo sequence',
};

const ZWJ = 0x200d;
const MARK = /^\p{M}$/u;

const inRange = (cp: number, lo: number, hi: number): boolean => cp >= lo && cp <= hi;

export const isRegionalIndicator = (cp: number): boolean => inRange(cp, 0x1f1e6, 0x1f1ff);

/** Why a cut just before `cp` would split a cluster, or null when `cp` can begin one. */
function extenderReason(cp: number): SplitReason | null {
  if (cp === ZWJ) return 'before_zwj';
  if (inRange(cp, 0xfe00, 0xfe0f) || inRange(cp, 0xe0100, 0xe01ef)) return 'before_variation_selector';
  if (inRange(cp, 0x1f3fb, 0x1f3ff)) return 'before_emoji_modifier';
  if (inRange(cp, 0xe0020, 0xe007f)) return 'before_tag';
  if (cp < 0x300) return null; // nothing below U+0300 is a mark: skip the regex for ASCII and Latin-1
  return MARK.test(String.fromCodePoint(cp)) ? 'before_combining_mark' : null;
}

type Jamo = 'L' | 'V' | 'T' | 'LV' | 'LVT';

function jamo(cp: number): Jamo | null {
  if (inRange(cp, 0x1100, 0x115f) || inRange(cp, 0xa960, 0xa97c)) return 'L';
  if (inRange(cp, 0x1160, 0x11a7) || inRange(cp, 0xd7b0, 0xd7c6)) return 'V';
  if (inRange(cp, 0x11a8, 0x11ff) || inRange(cp, 0xd7cb, 0xd7fb)) return 'T';
  if (inRange(cp, 0xac00, 0xd7a3)) return (cp - 0xac00) % 28 === 0 ? 'LV' : 'LVT';
  return null;
}

/** UAX #29 GB6–GB8: the jamo pairs that never break. */
export function joinsHangul(before: number, after: number): boolean {
  const a = jamo(before);
  const b = jamo(after);
  if (a === null || b === null) return false;
  if (a === 'L') return b !== 'T';
  if (a === 'LV' || a === 'V') return b === 'V' || b === 'T';
  return b === 'T'; // a is LVT or T
}

function isHigh(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLow(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** UTF-16 index of the code point that ends at `unit`. */
function previousUnit(text: string, unit: number): number {
  return unit >= 2 && isLow(text.charCodeAt(unit - 1)) && isHigh(text.charCodeAt(unit - 2)) ? unit - 2 : unit - 1;
}

/** How many regional indicators run back from `unit`, stopping at the first other code point. */
function regionalIndicatorsBefore(text: string, unit: number): number {
  let count = 0;
  for (let at = unit; at > 0; count++) {
    const prev = previousUnit(text, at);
    if (!isRegionalIndicator(text.codePointAt(prev) as number)) break;
    at = prev;
  }
  return count;
}

/** Why a cut at UTF-16 index `unit` (on a code-point boundary) splits a likely cluster, or null. */
export function splitAt(text: string, unit: number): SplitReason | null {
  if (unit <= 0 || unit >= text.length) return null;
  const after = text.codePointAt(unit) as number;
  const extender = extenderReason(after);
  if (extender !== null) return extender;
  const before = text.codePointAt(previousUnit(text, unit)) as number;
  if (before === ZWJ) return 'after_zwj';
  if (isRegionalIndicator(after) && regionalIndicatorsBefore(text, unit) % 2 === 1) return 'regional_indicator_pair';
  return joinsHangul(before, after) ? 'hangul_jamo_sequence' : null;
}

/** The cuts of one change (UTF-16 [unitStart, unitEnd) = code points [start, end)) that split a likely cluster. */
export function graphemeSplits(text: string, unitStart: number, unitEnd: number, start: number, end: number): GraphemeSplit[] {
  const splits: GraphemeSplit[] = [];
  const cuts: Array<[BoundaryKind, number, number]> =
    start === end ? [['insertion', unitStart, start]] : [['start', unitStart, start], ['end', unitEnd, end]];
  for (const [boundary, unit, offset] of cuts) {
    const reason = splitAt(text, unit);
    if (reason !== null) splits.push({ boundary, offset, reason });
  }
  return splits;
}
