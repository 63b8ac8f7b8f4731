/**
 * occurrence_index_basis_shift: occurrence indexes count occurrences in the sequential buffer, so
 * after earlier changes of the same transaction an index can name a different occurrence than the
 * same index named at transaction start. This maps a selected span back to transaction-start
 * coordinates through the earlier changes' recorded spans and names the original occurrence there.
 */
import { codePointToUnit } from '../text/code-points';
import type { AppliedSpan, SequentialBuffer } from './sequential-buffer';
import { firstOccurrences } from './typed-match';

export interface BasisShift {
  occurrence_index: number;
  /** The index the selected occurrence had at transaction start; null when earlier changes produced the text. */
  transaction_start_occurrence_index: number | null;
  prior_changes: number;
}

/**
 * Carry code-point range [start, end) of the buffer left by `applied` back to the transaction-start
 * buffer, undoing the changes newest first. Returns null unless the range is untouched original
 * text: it must overlap no text an earlier change produced, and where it straddles the point of a
 * pure deletion it is carried back as two pieces that must end up adjacent again (a later deletion
 * can remove exactly what an earlier change inserted; anything else joins text that was apart).
 * A change that neither removed nor inserted anything touches nothing.
 */
export function toTransactionStart(applied: readonly AppliedSpan[], start: number, end: number): { start: number; end: number } | null {
  let pieces: Array<[number, number]> = [[start, end]];
  for (let i = applied.length - 1; i >= 0; i--) {
    const change = applied[i];
    const removed = change.end - change.start;
    if (removed === 0 && change.replacement_chars === 0) continue;
    const producedEnd = change.start + change.replacement_chars;
    const shift = removed - change.replacement_chars;
    const before: Array<[number, number]> = [];
    for (const [s, e] of pieces) {
      if (e <= change.start) before.push([s, e]);
      else if (s >= producedEnd) before.push([s + shift, e + shift]);
      else if (change.replacement_chars > 0) return null;
      else before.push([s, change.start], [change.end, e + shift]); // the deletion point lies strictly inside
    }
    pieces = before;
  }
  for (let i = 1; i < pieces.length; i++) if (pieces[i][0] !== pieces[i - 1][1]) return null;
  return { start: pieces[0][0], end: pieces[pieces.length - 1][1] };
}

/**
 * UTF-16 starts of every overlapping occurrence of a match in a transaction's start text, per buffer
 * and match string: a transaction that edits one string several times by index scans the start text
 * once. Entries live exactly as long as the transaction's buffer, whose original text never changes.
 */
const originalStarts = new WeakMap<SequentialBuffer, Map<string, number[]>>();

function startsInOriginal(buf: SequentialBuffer, match: string): number[] {
  let byMatch = originalStarts.get(buf);
  if (byMatch === undefined) {
    byMatch = new Map();
    originalStarts.set(buf, byMatch);
  }
  let starts = byMatch.get(match);
  if (starts === undefined) {
    starts = firstOccurrences(buf.original, match, Infinity).units;
    byMatch.set(match, starts);
  }
  return starts;
}

/**
 * 1-based index, among the overlapping occurrences of `match` in the transaction-start text, of the
 * occurrence starting at code point `start`; null when none starts there.
 */
function originalOccurrenceIndex(buf: SequentialBuffer, match: string, start: number): number | null {
  const unit = codePointToUnit(buf.original, start, buf.originalBmpOnly);
  const starts = startsInOriginal(buf, match);
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid] < unit) lo = mid + 1;
    else hi = mid;
  }
  return starts[lo] === unit ? lo + 1 : null;
}

/**
 * The basis difference of a change that selected occurrence `occurrenceIndex` of `match` at
 * sequential code points [start, end), evaluated before the change itself is applied; null when
 * there were no earlier changes or the index names the same occurrence it named at transaction start.
 */
export function basisShift(buf: SequentialBuffer, match: string, occurrenceIndex: number, start: number, end: number): BasisShift | null {
  if (buf.applied.length === 0) return null;
  const origin = toTransactionStart(buf.applied, start, end);
  const index = origin === null ? null : originalOccurrenceIndex(buf, match, origin.start);
  if (index === occurrenceIndex) return null;
  return { occurrence_index: occurrenceIndex, transaction_start_occurrence_index: index, prior_changes: buf.applied.length };
}
