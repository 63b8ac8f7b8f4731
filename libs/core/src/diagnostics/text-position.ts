import { codePointLength, codePointToUnit } from '../text/code-points';

/** 1-based line and column (in code points) of a code-point offset, as an agent reading the text counts them. */
export interface TextPosition {
  line: number;
  column: number;
}

export function positionOf(text: string, offset: number): TextPosition {
  const unit = codePointToUnit(text, Math.max(0, Math.min(offset, codePointLength(text))));
  const head = text.slice(0, unit);
  const lineStart = head.lastIndexOf('\n') + 1;
  let line = 1;
  for (let i = head.indexOf('\n'); i !== -1; i = head.indexOf('\n', i + 1)) line += 1;
  return { line, column: codePointLength(head.slice(lineStart)) + 1 };
}

/** Every code-point start of `needle` in `text` (overlapping ones counted), at most `limit`. */
export function occurrenceStarts(text: string, needle: string, limit: number): number[] {
  const starts: number[] = [];
  if (needle === '') return starts;
  let cp = 0;
  let last = 0;
  for (let at = text.indexOf(needle); at !== -1 && starts.length < limit; at = text.indexOf(needle, at + 1)) {
    cp += codePointLength(text.slice(last, at));
    last = at;
    starts.push(cp);
  }
  return starts;
}

/** A short, one-line quotation of text for a reason string. */
export function quoted(text: string, max = 40): string {
  const cut = [...text];
  return JSON.stringify(cut.length > max ? `${cut.slice(0, max).join('')}…` : text);
}
