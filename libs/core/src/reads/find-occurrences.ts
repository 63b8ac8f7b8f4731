import { Checked, invalidArgument, ok, refuse } from '../errors/invalid-argument';
import { toCanonicalLf } from '../text/canonical-text';
import { codePointLength, hasLoneSurrogate, isBmpOnly } from '../text/code-points';
import { advanceCodePoints, countCodePoints, nextCodePoint, retreatCodePoints } from './code-point-walk';
import { integerArg, READ_BOUNDS } from './read-bounds';

export interface FindOccurrencesArgs {
  text: string;
  context_chars?: number | null;
  start_occurrence?: number | null;
  max_results?: number | null;
}

/** One exact occurrence; start/end are absolute code points (end exclusive), index is 1-based. */
export interface Occurrence {
  occurrence_index: number;
  start: number;
  end: number;
  before: string;
  after: string;
}

export interface OccurrencesPage {
  occurrence_count: number;
  returned_count: number;
  start_occurrence: number;
  occurrences: Occurrence[];
  truncated: boolean;
  next_occurrence_index: number | null;
}

interface SearchArgs {
  needle: string;
  contextChars: number;
  startOccurrence: number;
  maxResults: number;
}

/**
 * palimpsest_find_occurrences over the canonical LF text. The search text is compared in canonical
 * form (CRLF and lone CR become LF first), the same canonicalization every stored text went through.
 * Overlapping occurrences count: the scan resumes one code point after each match start.
 * One indexOf sweep counts everything; positions are kept and converted only for the returned page.
 */
export function findOccurrences(text: string, args: FindOccurrencesArgs): Checked<OccurrencesPage> {
  const parsed = parseArgs(args);
  if (!parsed.ok) return parsed;
  const q = parsed.value;
  const { count, pageUnits } = scanOccurrences(text, q);
  const bmpOnly = isBmpOnly(text);
  const occurrences = describePage(text, pageUnits, q, bmpOnly);
  const nextIndex = q.startOccurrence + occurrences.length;
  const truncated = nextIndex <= count;
  return ok({
    occurrence_count: count,
    returned_count: occurrences.length,
    start_occurrence: q.startOccurrence,
    occurrences,
    truncated,
    next_occurrence_index: truncated ? nextIndex : null,
  });
}

function parseArgs(args: FindOccurrencesArgs): Checked<SearchArgs> {
  const needle = checkNeedle(args.text);
  if (!needle.ok) return needle;
  const context = integerArg(args.context_chars, {
    argument: 'context_chars',
    code: 'invalid_context_chars',
    min: 0,
    fallback: READ_BOUNDS.defaultContextChars,
    nullIsDefault: false, // seed: null context_chars is invalid, unlike the other optional sizes
  });
  if (!context.ok) return context;
  const start = integerArg(args.start_occurrence, {
    argument: 'start_occurrence',
    code: 'invalid_start_occurrence',
    min: 1,
    fallback: 1,
  });
  if (!start.ok) return start;
  const max = integerArg(args.max_results, {
    argument: 'max_results',
    code: 'invalid_max_results',
    min: 1,
    fallback: READ_BOUNDS.maxResults,
  });
  if (!max.ok) return max;
  return ok({
    needle: needle.value,
    contextChars: Math.min(context.value, READ_BOUNDS.maxContextChars),
    startOccurrence: start.value,
    maxResults: Math.min(max.value, READ_BOUNDS.maxResults),
  });
}

function checkNeedle(raw: string): Checked<string> {
  if (raw.length === 0) {
    return refuse(invalidArgument('empty_text', 'text must be a non-empty string.', { argument: 'text' }));
  }
  if (hasLoneSurrogate(raw)) {
    const detail = 'text contains an unpaired UTF-16 surrogate and is not valid Unicode text.';
    return refuse(invalidArgument('invalid_text_encoding', detail, { argument: 'text' }));
  }
  return ok(toCanonicalLf(raw));
}

/** Counts every (overlapping) occurrence; keeps the UTF-16 starts of the requested page only. */
function scanOccurrences(text: string, q: SearchArgs): { count: number; pageUnits: number[] } {
  const first = q.startOccurrence;
  const last = first + q.maxResults - 1;
  const pageUnits: number[] = [];
  let count = 0;
  for (let at = text.indexOf(q.needle); at !== -1; at = text.indexOf(q.needle, nextCodePoint(text, at))) {
    count++;
    if (count >= first && count <= last) pageUnits.push(at);
  }
  return { count, pageUnits };
}

/** Converts the page's unit starts to code points with one forward walk, and cuts the contexts. */
function describePage(text: string, pageUnits: number[], q: SearchArgs, bmpOnly: boolean): Occurrence[] {
  const needleUnits = q.needle.length;
  const needleChars = bmpOnly ? needleUnits : codePointLength(q.needle);
  let unit = 0;
  let cp = 0;
  return pageUnits.map((at, i) => {
    cp += countCodePoints(text, unit, at, bmpOnly);
    unit = at;
    const endUnit = at + needleUnits;
    const before = text.slice(retreatCodePoints(text, at, q.contextChars, bmpOnly), at);
    const after = text.slice(endUnit, advanceCodePoints(text, endUnit, q.contextChars, bmpOnly));
    return { occurrence_index: q.startOccurrence + i, start: cp, end: cp + needleChars, before, after };
  });
}
