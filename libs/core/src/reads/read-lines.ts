import { Checked, invalidArgument, ok, refuse } from '../errors/invalid-argument';
import { isBmpOnly } from '../text/code-points';
import { advanceCodePoints, countCodePoints } from './code-point-walk';
import { LineScan, LineStart, pageLineStarts, scanLines } from './lines';
import { integerArg, READ_BOUNDS } from './read-bounds';

export interface ReadLinesArgs {
  start_line?: number | null;
  end_line?: number | null;
  offset?: number | null;
  max_chars?: number | null;
  include_line_starts?: boolean | null;
}

/**
 * One page of an inclusive LF line range. range_* and start/end are absolute code-point offsets
 * with exclusive ends; next_offset is relative to range_start (for read_lines), next_start is
 * absolute (for read_target). Both are null on the last page.
 */
export interface LinesPage {
  total_chars: number;
  total_lines: number;
  start_line: number;
  end_line: number;
  range_start: number;
  range_end: number;
  start: number;
  end: number;
  text: string;
  truncated: boolean;
  next_offset: number | null;
  next_start: number | null;
  line_starts?: LineStart[];
}

interface LineArgs {
  startLine: number;
  endLine: number | null;
  offset: number;
  maxChars: number;
  includeLineStarts: boolean;
}

interface RangeCoords {
  totalChars: number;
  rangeStart: number;
  rangeEnd: number;
}

/** palimpsest_read_lines: defaults start_line 1, end_line last, offset 0, max_chars 4,000 (cap 8,000). */
export function readLines(text: string, args: ReadLinesArgs): Checked<LinesPage> {
  const parsed = parseArgs(args);
  if (!parsed.ok) return parsed;
  const q = parsed.value;
  const bmpOnly = isBmpOnly(text);
  const scan = scanLines(text, { startLine: q.startLine, endLine: q.endLine, offset: q.offset, bmpOnly });
  const endLine = checkLines(q, scan);
  if (!endLine.ok) return endLine;
  const coords = toCodePoints(text, scan, bmpOnly);
  const rangeLength = coords.rangeEnd - coords.rangeStart;
  if (q.offset > rangeLength) {
    const detail = `offset ${q.offset} is past the end of the line range (range length ${rangeLength}).`;
    return refuse(invalidArgument('offset_out_of_range', detail, { argument: 'offset', range_length: rangeLength }));
  }
  return ok(buildPage(text, { ...q, endLine: endLine.value }, scan, coords, bmpOnly));
}

function parseArgs(args: ReadLinesArgs): Checked<LineArgs> {
  const startLine = integerArg(args.start_line, {
    argument: 'start_line',
    code: 'line_out_of_range',
    min: 1,
    fallback: 1,
  });
  if (!startLine.ok) return startLine;
  const endLine =
    args.end_line === undefined || args.end_line === null
      ? ok(null)
      : integerArg(args.end_line, { argument: 'end_line', code: 'line_out_of_range', min: 1, fallback: 1 });
  if (!endLine.ok) return endLine;
  const offset = integerArg(args.offset, { argument: 'offset', code: 'offset_out_of_range', min: 0, fallback: 0 });
  if (!offset.ok) return offset;
  const maxChars = integerArg(args.max_chars, {
    argument: 'max_chars',
    code: 'invalid_max_chars',
    min: 1,
    fallback: READ_BOUNDS.defaultChars,
  });
  if (!maxChars.ok) return maxChars;
  if (endLine.value !== null && endLine.value < startLine.value) {
    const detail = `end_line ${endLine.value} is before start_line ${startLine.value}.`;
    return refuse(invalidArgument('invalid_line_range', detail, { argument: 'end_line' }));
  }
  return ok({
    startLine: startLine.value,
    endLine: endLine.value,
    offset: offset.value,
    maxChars: Math.min(maxChars.value, READ_BOUNDS.maxChars),
    includeLineStarts: args.include_line_starts === true,
  });
}

/** Range checks that need total_lines; yields the effective (inclusive) end line. */
function checkLines(q: LineArgs, scan: LineScan): Checked<number> {
  const total = scan.totalLines;
  if (scan.rangeStartUnit === null) {
    const detail = `start_line ${q.startLine} is past the last line (total_lines ${total}).`;
    return refuse(invalidArgument('line_out_of_range', detail, { argument: 'start_line', total_lines: total }));
  }
  if (q.endLine !== null && q.endLine > total) {
    const detail = `end_line ${q.endLine} is past the last line (total_lines ${total}).`;
    return refuse(invalidArgument('line_out_of_range', detail, { argument: 'end_line', total_lines: total }));
  }
  return ok(q.endLine ?? total);
}

function toCodePoints(text: string, scan: LineScan, bmpOnly: boolean): RangeCoords {
  const startUnit = scan.rangeStartUnit ?? text.length;
  const rangeStart = countCodePoints(text, 0, startUnit, bmpOnly);
  const rangeEnd = rangeStart + countCodePoints(text, startUnit, scan.rangeEndUnit, bmpOnly);
  const totalChars = rangeEnd + countCodePoints(text, scan.rangeEndUnit, text.length, bmpOnly);
  return { totalChars, rangeStart, rangeEnd };
}

function buildPage(
  text: string,
  q: LineArgs & { endLine: number },
  scan: LineScan,
  coords: RangeCoords,
  bmpOnly: boolean,
): LinesPage {
  const start = coords.rangeStart + q.offset;
  const end = Math.min(start + q.maxChars, coords.rangeEnd);
  const endUnit = advanceCodePoints(text, scan.pageStartUnit, end - start, bmpOnly);
  const truncated = end < coords.rangeEnd;
  const page: LinesPage = {
    total_chars: coords.totalChars,
    total_lines: scan.totalLines,
    start_line: q.startLine,
    end_line: q.endLine,
    range_start: coords.rangeStart,
    range_end: coords.rangeEnd,
    start,
    end,
    text: text.slice(scan.pageStartUnit, endUnit),
    truncated,
    next_offset: truncated ? end - coords.rangeStart : null,
    next_start: truncated ? end : null,
  };
  if (!q.includeLineStarts) return page;
  const frame = { startUnit: scan.pageStartUnit, endUnit, startCp: start, line: scan.pageLine, endLine: q.endLine };
  return { ...page, line_starts: pageLineStarts(text, { ...frame, final: !truncated, bmpOnly }) };
}
