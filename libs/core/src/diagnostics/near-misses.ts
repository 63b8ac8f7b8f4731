import { codePointLength, isBmpOnly } from '../text/code-points';
import { toCanonicalLf } from '../text/canonical-text';
import { asciiJson } from '../transaction/record-codec';
import { stepForward } from '../transaction/text-window';
import { DiagonalWave, bandRadius, nearMissThreshold } from './banded-levenshtein';
import { codesOf, scanTextOf, textOfCodes, type ScanText } from './code-point-array';
import { candidateWindowStarts } from './pigeonhole-filter';

/** A fresh rejection scans at most this many code points of the failing buffer. */
export const NEAR_MISS_SCAN_CODE_POINTS = 65_536;
export const MAX_NEAR_MISSES = 3;
export const NEAR_MISS_CONTEXT_CODE_POINTS = 16;
/** Longest window text kept: the longest window (m + 1) of the longest persisted query (64). */
export const NEAR_MISS_TEXT_CODE_POINTS = 65;
/** Budget for {near_misses: …} in compact ASCII-escaped JSON. */
export const NEAR_MISSES_BYTE_BUDGET = 8192;
export const COMPARISON_CELL_CAP = 1_000_000;
/** near_miss_query is persisted only for queries of at most this many raw code points. */
export const NEAR_MISS_QUERY_CODE_POINTS = 64;
/** Budget for {near_miss_query: …} in compact ASCII-escaped JSON. */
export const NEAR_MISS_QUERY_BYTE_BUDGET = 1024;

export const NEAR_MISS_HINT =
  'No text within the edit-distance threshold was found in the scanned range; ' +
  'search the target with palimpsest_find_occurrences using a shorter part of the MATCH text.';

export type NearMissScanSource = 'failing_buffer' | 'stored_failure_context';

/** Fields beyond the seed's list: text_truncated (text is cut to NEAR_MISS_TEXT_CODE_POINTS). */
export interface NearMissCandidate {
  /** Absolute code-point offsets in failing-buffer coordinates, end exclusive. */
  start: number;
  end: number;
  distance: number;
  text: string;
  text_truncated: boolean;
  before: string;
  after: string;
}

/**
 * Response-only near misses for match_absent.
 *
 * scanned_start/scanned_end are the absolute, end-exclusive range of window starts searched
 * (every start in it was either proven empty by the filter or evaluated and committed).
 * comparison_cells sums max(1, min(m, reached_row)) × (2 × band_radius + 1) over committed starts,
 * reached_row being the furthest query row the diagonal wave reached before it stopped.
 * hint is a sentence naming palimpsest_find_occurrences when candidates is empty, null otherwise.
 * work_budget_exhausted is kept for the seed's shape but cannot become true under these limits: a
 * window needs m - 1 ≤ 65,536, so one start costs at most 65,537 × 5 cells, below the cap.
 */
export interface NearMisses {
  kind: 'near_misses';
  scan_source: NearMissScanSource;
  query_chars: number;
  threshold: number;
  band_radius: number;
  candidates: NearMissCandidate[];
  returned_count: number;
  comparison_cells: number;
  scanned_start: number;
  scanned_end: number;
  scope_truncated: boolean;
  candidates_truncated: boolean;
  truncated: boolean;
  work_budget_exhausted: boolean;
  hint: string | null;
}

export interface NearMissOptions {
  scanSource: NearMissScanSource;
  /** Absolute start of `buffer` in failing-buffer coordinates (a stored failure context's start). */
  bufferOffset?: number;
  /**
   * Code-point length of the whole failing buffer when `buffer` is only part of it (a stored
   * failure context's total_chars). Defaults to bufferOffset plus the length of `buffer`.
   */
  failingBufferChars?: number;
}

export type NearMissQuery = { near_miss_query: string } | { omission_reason: 'match_too_large' };

/** The persisted form of a match_absent query: canonical text, only for short raw queries. */
export function nearMissQuery(rawQuery: string): NearMissQuery {
  if (codePointLength(rawQuery) > NEAR_MISS_QUERY_CODE_POINTS) return { omission_reason: 'match_too_large' };
  const persisted = { near_miss_query: toCanonicalLf(rawQuery) };
  // 64 code points escape to at most 768 bytes, so this guard only documents the budget.
  if (asciiJson(persisted).length > NEAR_MISS_QUERY_BYTE_BUDGET) return { omission_reason: 'match_too_large' };
  return persisted;
}

/**
 * Similar windows of the (canonical) query in the first NEAR_MISS_SCAN_CODE_POINTS code points of
 * `buffer`: lengths m - 1, m, m + 1, code-point Levenshtein distance in 1..threshold, chosen in
 * (distance, start, end) order without overlaps, at most MAX_NEAR_MISSES. The ranking is that of an
 * unpruned search over [scanned_start, scanned_end).
 */
export function computeNearMisses(buffer: string, query: string, opts: NearMissOptions): NearMisses {
  const offset = opts.bufferOffset ?? 0;
  const scanned = boundedPrefix(buffer);
  const queryCodes = codesOf(toCanonicalLf(query));
  const m = queryCodes.length;
  const threshold = nearMissThreshold(m);
  const radius = bandRadius(threshold);
  const n = scanned.codes.length;
  const shortest = Math.max(1, m - 1);
  const startCount = Math.max(0, n - shortest + 1);
  const scan = scanWindowStarts(scanned, queryCodes, threshold, radius, startCount);
  const picked = pickWindows(scan.byDistance);
  const candidates = picked.windows.map(([start, end, distance]) => describeWindow(scanned.codes, start, end, distance, offset));
  const wholeChars = opts.failingBufferChars ?? offset + (scanned.cut ? codePointLength(buffer) : n);
  const wholeStarts = Math.max(0, wholeChars - shortest + 1);
  const scopeTruncated = wholeStarts > 0 && (offset > 0 || offset + scan.end < wholeStarts);
  const result: NearMisses = {
    kind: 'near_misses',
    scan_source: opts.scanSource,
    query_chars: m,
    threshold,
    band_radius: radius,
    candidates,
    returned_count: 0,
    comparison_cells: scan.cells,
    scanned_start: offset,
    scanned_end: offset + scan.end,
    scope_truncated: scopeTruncated,
    candidates_truncated: picked.more,
    truncated: false,
    work_budget_exhausted: scan.end < startCount && scan.committed === 0,
    hint: null,
  };
  settle(result);
  while (result.candidates.length > 0 && asciiJson({ near_misses: result }).length > NEAR_MISSES_BYTE_BUDGET) {
    result.candidates.pop();
    result.candidates_truncated = true;
    settle(result);
  }
  return result;
}

interface WindowScan {
  /** (start, end) pairs per distance 1..threshold, in ascending (start, end) order. */
  byDistance: number[][];
  cells: number;
  /** Window starts evaluated and committed. */
  committed: number;
  /** End (exclusive, relative) of the window starts covered. */
  end: number;
}

/**
 * Evaluate the starts the filter keeps, ascending. A start is evaluated as a unit, then committed
 * only if its cells still fit the cap; the first one that does not is discarded and ends the scan,
 * so everything before it keeps the exact ranking.
 */
function scanWindowStarts(scanned: ScanText, query: Int32Array, threshold: number, radius: number, startCount: number): WindowScan {
  const marks = candidateWindowStarts(scanned, query, threshold, radius, startCount);
  const wave = new DiagonalWave(query, scanned.codes, threshold, radius);
  const byDistance: number[][] = Array.from({ length: threshold + 1 }, () => []);
  const m = query.length;
  let cells = 0;
  let committed = 0;
  for (let s = 0; s < startCount; s++) {
    if (marks !== null && marks[s] === 0) continue;
    wave.evaluate(s);
    const windowCells = wave.cells();
    if (cells + windowCells > COMPARISON_CELL_CAP) return { byDistance, cells, committed, end: s };
    cells += windowCells;
    committed++;
    for (let w = 0; w < 3; w++) {
      const distance = wave.distances[w];
      if (distance >= 1 && distance <= threshold) byDistance[distance].push(s, s + m - 1 + w);
    }
  }
  return { byDistance, cells, committed, end: startCount };
}

function settle(result: NearMisses): void {
  result.returned_count = result.candidates.length;
  result.truncated = result.scope_truncated || result.candidates_truncated;
  result.hint = result.candidates.length === 0 ? NEAR_MISS_HINT : null;
}

/**
 * Greedy choice in (distance, start, end) order. Each distance list already holds (start, end)
 * pairs in ascending order, because starts are evaluated ascending and lengths m - 1, m, m + 1 in
 * turn. `more` is true when a further non-overlapping window qualified.
 */
function pickWindows(byDistance: number[][]): { windows: [number, number, number][]; more: boolean } {
  const windows: [number, number, number][] = [];
  for (let distance = 1; distance < byDistance.length; distance++) {
    const list = byDistance[distance];
    for (let i = 0; i < list.length; i += 2) {
      const start = list[i];
      const end = list[i + 1];
      if (windows.some(([s, e]) => start < e && s < end)) continue;
      if (windows.length === MAX_NEAR_MISSES) return { windows, more: true };
      windows.push([start, end, distance]);
    }
  }
  return { windows, more: false };
}

function describeWindow(codes: Int32Array, start: number, end: number, distance: number, offset: number): NearMissCandidate {
  const textEnd = Math.min(end, start + NEAR_MISS_TEXT_CODE_POINTS);
  return {
    start: offset + start,
    end: offset + end,
    distance,
    text: textOfCodes(codes, start, textEnd),
    text_truncated: textEnd < end,
    before: textOfCodes(codes, Math.max(0, start - NEAR_MISS_CONTEXT_CODE_POINTS), start),
    after: textOfCodes(codes, end, Math.min(codes.length, end + NEAR_MISS_CONTEXT_CODE_POINTS)),
  };
}

interface BoundedScan extends ScanText {
  /** True when the buffer continues past the scanned prefix. */
  cut: boolean;
}

/** The first NEAR_MISS_SCAN_CODE_POINTS code points of the buffer. */
function boundedPrefix(buffer: string): BoundedScan {
  const bmpOnly = isBmpOnly(buffer);
  const end = bmpOnly ? Math.min(buffer.length, NEAR_MISS_SCAN_CODE_POINTS) : stepForward(buffer, 0, NEAR_MISS_SCAN_CODE_POINTS);
  return { ...scanTextOf(end < buffer.length ? buffer.slice(0, end) : buffer, bmpOnly), cut: end < buffer.length };
}
