/**
 * LF line arithmetic for palimpsest_read_lines. Lines are one-based and LF-only; each line owns its
 * trailing LF, so a trailing LF opens a final empty line and an empty text has one empty line.
 *
 * The whole computation is a single indexOf('\n') sweep that stores nothing per line: it seeks the
 * start line, then keeps counting to learn the range end, the line under the page start and
 * total_lines (which the response reports, so the sweep cannot stop at end_line).
 * Everything here is in UTF-16 units; read-lines.ts converts to code points.
 */
import { advanceCodePoints, countCodePoints } from './code-point-walk';

const LF = 10;

export interface LineQuery {
  startLine: number;
  /** Inclusive; null selects through the last line. */
  endLine: number | null;
  /** Code points from the range start to the page start. */
  offset: number;
  bmpOnly: boolean;
}

export interface LineScan {
  totalLines: number;
  /** Unit where startLine begins; null when the text has fewer lines. */
  rangeStartUnit: number | null;
  /** Unit just past endLine's LF; the text end when endLine is null or not before the last line. */
  rangeEndUnit: number;
  /** `offset` code points after rangeStartUnit, clamped to the text end. */
  pageStartUnit: number;
  /** The line holding pageStartUnit: startLine plus the LFs in [rangeStartUnit, pageStartUnit). */
  pageLine: number;
}

export function scanLines(text: string, query: LineQuery): LineScan {
  const head = seekLine(text, query.startLine);
  if (head.unit === null) {
    const end = text.length;
    return { totalLines: head.line, rangeStartUnit: null, rangeEndUnit: end, pageStartUnit: end, pageLine: head.line };
  }
  const pageStartUnit = advanceCodePoints(text, head.unit, query.offset, query.bmpOnly);
  const rest = scanRest(text, head.unit, query, pageStartUnit);
  return { ...rest, rangeStartUnit: head.unit, pageStartUnit };
}

/** Advances to the start of line `target`; stops at the last line (unit null) when there are fewer. */
function seekLine(text: string, target: number): { unit: number | null; line: number } {
  let unit = 0;
  let line = 1;
  while (line < target) {
    const lf = text.indexOf('\n', unit);
    if (lf === -1) return { unit: null, line };
    unit = lf + 1;
    line++;
  }
  return { unit, line };
}

function scanRest(
  text: string,
  fromUnit: number,
  query: LineQuery,
  probeUnit: number,
): { totalLines: number; rangeEndUnit: number; pageLine: number } {
  const stopLine = query.endLine === null ? -1 : query.endLine + 1;
  let line = query.startLine;
  let pageLine = line;
  let rangeEndUnit = text.length;
  for (let lf = text.indexOf('\n', fromUnit); lf !== -1; lf = text.indexOf('\n', lf + 1)) {
    line++;
    if (lf < probeUnit) pageLine = line;
    if (line === stopLine) rangeEndUnit = lf + 1;
  }
  return { totalLines: line, rangeEndUnit, pageLine };
}

export interface PageFrame {
  startUnit: number;
  endUnit: number;
  /** Absolute code-point offset of startUnit. */
  startCp: number;
  /** Line holding startUnit (LineScan.pageLine). */
  line: number;
  /** Last selected line (inclusive). */
  endLine: number;
  /** True when this is the last page of the range (not truncated). */
  final: boolean;
  bmpOnly: boolean;
}

export interface LineStart {
  line: number;
  start: number;
}

/**
 * Absolute starts of the selected lines that begin inside the page.
 *
 * Rule: a selected line starting at s is listed when page.start <= s < page.end, and also when
 * s == page.end on the final page. The second clause exists only for an empty last selected line
 * (the line after a trailing LF, or the one line of an empty target): it has no characters, so no
 * half-open page can contain it, and the final page claims it. Consequence: following next_offset
 * from offset 0 lists every selected line exactly once, and a range made of one empty line still
 * reports its start. Any other empty page (offset == range length after a non-empty last line)
 * lists nothing. A line start at the range end that belongs to end_line + 1 is never listed.
 */
export function pageLineStarts(text: string, page: PageFrame): LineStart[] {
  const starts: LineStart[] = [];
  const claims = (unit: number): boolean => unit < page.endUnit || (page.final && unit === page.endUnit);
  const atLineStart = page.startUnit === 0 || text.charCodeAt(page.startUnit - 1) === LF;
  if (atLineStart && page.line <= page.endLine && claims(page.startUnit)) {
    starts.push({ line: page.line, start: page.startCp });
  }
  let line = page.line;
  let unit = page.startUnit;
  let cp = page.startCp;
  for (let lf = text.indexOf('\n', page.startUnit); lf !== -1 && lf < page.endUnit; lf = text.indexOf('\n', lf + 1)) {
    line++;
    if (line > page.endLine || !claims(lf + 1)) break;
    cp += countCodePoints(text, unit, lf + 1, page.bmpOnly);
    unit = lf + 1;
    starts.push({ line, start: cp });
  }
  return starts;
}
