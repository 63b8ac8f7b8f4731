/** Where an oldString occurs in a text, by 1-based line (overlapping occurrences counted, as the decider counts them). */
export const MAX_MATCH_LINES = 200;

export function matchLines(text: string, match: string): { count: number; lines: number[]; truncated: boolean } {
  const lines: number[] = [];
  let count = 0;
  let line = 1;
  let scanned = 0;
  for (let at = text.indexOf(match); at >= 0 && match.length > 0; at = text.indexOf(match, at + 1)) {
    for (let nl = text.indexOf('\n', scanned); nl >= 0 && nl < at; nl = text.indexOf('\n', nl + 1)) {
      line++;
      scanned = nl + 1;
    }
    if (scanned < at) scanned = at;
    count++;
    if (lines.length < MAX_MATCH_LINES) lines.push(line);
  }
  return { count, lines, truncated: count > lines.length };
}
