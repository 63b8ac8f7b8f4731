import type { ScanText } from './code-point-array';

/**
 * Exact positional pigeonhole filter for near-miss window starts.
 *
 * The query is cut into threshold + 1 disjoint, contiguous pieces. An alignment of cost ≤ threshold
 * performs at most threshold edits and each edit breaks at most one piece (a substitution or
 * deletion touches the piece holding that query code point; an insertion between two code points
 * of one piece breaks that piece, one at a piece boundary breaks none). So at least one piece is
 * matched code point for code point along a single diagonal d of the path, and that diagonal lies
 * within the band |d| ≤ band_radius (see banded-levenshtein.ts). A piece at query offset o then
 * occurs in the text at s + o + d: the window start s can only hold a candidate when some piece
 * occurs at a text position t with t - o - band_radius ≤ s ≤ t - o + band_radius.
 *
 * Starts outside every such interval have no window within the threshold, so skipping them leaves
 * the candidate set, and therefore the ranking, exactly as an unpruned search finds it.
 */

export interface NeedlePiece {
  /** Query offset in code points. */
  offset: number;
  length: number;
}

/** threshold + 1 near-equal pieces, or null when the query is too short for non-empty pieces. */
export function needlePieces(queryChars: number, threshold: number): NeedlePiece[] | null {
  const count = threshold + 1;
  if (queryChars < count) return null;
  const pieces: NeedlePiece[] = [];
  for (let p = 0; p < count; p++) {
    const from = Math.floor((p * queryChars) / count);
    const to = Math.floor(((p + 1) * queryChars) / count);
    pieces.push({ offset: from, length: to - from });
  }
  return pieces;
}

/** Longest piece searched with native indexOf: its per-occurrence cost stays bounded. */
const NATIVE_SEARCH_MAX_PIECE = 64;

/**
 * Marks (1) the window starts in [0, startCount) that can hold a candidate; null when the query
 * is too short to be cut into pieces, meaning every start must be evaluated.
 */
export function candidateWindowStarts(
  scan: ScanText,
  query: Int32Array,
  threshold: number,
  radius: number,
  startCount: number,
): Uint8Array | null {
  const pieces = needlePieces(query.length, threshold);
  if (pieces === null) return null;
  const marks = new Uint8Array(startCount);
  if (startCount === 0) return marks;
  for (const piece of pieces) {
    const needle = query.subarray(piece.offset, piece.offset + piece.length);
    const mark = (t: number): void => {
      const from = Math.max(0, t - piece.offset - radius);
      const to = Math.min(startCount - 1, t - piece.offset + radius);
      for (let s = from; s <= to; s++) marks[s] = 1;
    };
    // Native search re-verifies each occurrence, so long pieces in periodic text go to KMP.
    if (scan.searchText !== null && piece.length <= NATIVE_SEARCH_MAX_PIECE && !hasSurrogateCode(needle)) {
      const cpOfUnit = scan.cpOfUnit;
      forEachStringOccurrence(scan.searchText, needle, cpOfUnit === null ? mark : (unit) => mark(cpOfUnit[unit]));
    } else {
      forEachCodeOccurrence(scan.codes, needle, mark);
    }
  }
  return marks;
}

function hasSurrogateCode(codes: Int32Array): boolean {
  for (const code of codes) if (code >= 0xd800 && code <= 0xdfff) return true;
  return false;
}

function forEachStringOccurrence(text: string, needle: Int32Array, visit: (unit: number) => void): void {
  const piece = String.fromCodePoint(...needle);
  for (let at = text.indexOf(piece); at !== -1; at = text.indexOf(piece, at + 1)) visit(at);
}

/** Knuth–Morris–Pratt over code points: linear in text plus needle, whatever the repetition. */
function forEachCodeOccurrence(text: Int32Array, needle: Int32Array, visit: (at: number) => void): void {
  const n = needle.length;
  const border = new Int32Array(n);
  for (let i = 1, b = 0; i < n; i++) {
    while (b > 0 && needle[i] !== needle[b]) b = border[b - 1];
    if (needle[i] === needle[b]) b++;
    border[i] = b;
  }
  for (let i = 0, q = 0; i < text.length; i++) {
    while (q > 0 && text[i] !== needle[q]) q = border[q - 1];
    if (text[i] === needle[q]) q++;
    if (q === n) {
      visit(i - n + 1);
      q = border[q - 1];
    }
  }
}
