/**
 * The shortest surrounding context that makes one occurrence of an ambiguous match unique, so that a
 * refusal can offer, per occurrence, a call whose old text names that occurrence alone. Whole lines are
 * preferred (a line's rest, then whole lines above and below, fewest added characters first); when the
 * whole-line context would be long (a paragraph on one line), word-bounded context within the lines is
 * tried. Offsets are UTF-16 units; a context never splits a surrogate pair.
 */

/** Whole lines added on each side at most. */
const MAX_CONTEXT_LINES = 8;
/** Whole-line context longer than this is compared with a word-bounded one. */
const LONG_CONTEXT_CHARS = 160;
/** Word-bounded context reaches at most this far on each side. */
const WORD_CONTEXT_CHARS = 120;
/** Comparisons one search may spend (each a startsWith at a known occurrence). */
const WORK_CAP = 2_000_000;

export interface Occurrence {
  /** UTF-16 offset of the occurrence. */
  start: number;
  /** 1-based line the occurrence starts on. */
  line: number;
}

/** Every occurrence of `match` in `text` (overlapping ones counted, as the decider counts them), with its line. */
export function occurrencesOf(text: string, match: string): Occurrence[] {
  const found: Occurrence[] = [];
  if (match === '') return found;
  let line = 1;
  let scanned = 0;
  for (let at = text.indexOf(match); at !== -1; at = text.indexOf(match, at + 1)) {
    for (let nl = text.indexOf('\n', scanned); nl !== -1 && nl < at; nl = text.indexOf('\n', nl + 1)) {
      line++;
      scanned = nl + 1;
    }
    if (scanned < at) scanned = at;
    found.push({ start: at, line });
  }
  return found;
}

export interface UniqueContext {
  /** Text to put before the match and before its replacement. */
  before: string;
  /** Text to put after both. */
  after: string;
}

const isLow = (text: string, at: number) => {
  const c = text.charCodeAt(at);
  return c >= 0xdc00 && c <= 0xdfff;
};

class ContextSearch {
  private work = 0;
  constructor(
    private readonly text: string,
    private readonly match: string,
    private readonly starts: readonly number[],
  ) {}

  /** Whether text[a, b) (which holds the occurrence at `start`) occurs nowhere else. */
  unique(start: number, a: number, b: number): boolean | null {
    const window = this.text.slice(a, b);
    const lead = start - a;
    for (const s of this.starts) {
      if (s === start) continue;
      if (++this.work > WORK_CAP) return null;
      if (s - lead >= 0 && this.text.startsWith(window, s - lead)) return false;
    }
    return true;
  }

  /** Whole lines: the fewest lines added, then the fewest characters. */
  lines(start: number): [number, number] | null {
    const { text } = this;
    const end = start + this.match.length;
    const a0 = start === 0 || text[start - 1] === '\n' ? start : text.lastIndexOf('\n', start - 1) + 1;
    const b0 = end === text.length || text[end - 1] === '\n' || text[end] === '\n' ? end : nextLineEnd(text, end);
    const ups = [a0];
    while (ups.length <= MAX_CONTEXT_LINES && ups[ups.length - 1]! > 0) ups.push(text.lastIndexOf('\n', ups[ups.length - 1]! - 2) + 1);
    const downs = [b0];
    while (downs.length <= MAX_CONTEXT_LINES && downs[downs.length - 1]! < text.length) {
      const b = downs[downs.length - 1]!;
      downs.push(text[b] === '\n' ? nextLineEnd(text, b + 1) : nextLineEnd(text, b));
    }
    for (let added = 0; added <= 2 * MAX_CONTEXT_LINES; added++) {
      let best: [number, number] | null = null;
      for (let up = Math.max(0, added - (downs.length - 1)); up <= Math.min(added, ups.length - 1); up++) {
        const a = ups[up]!;
        const b = downs[added - up]!;
        const found = this.unique(start, a, b);
        if (found === null) return null;
        if (found && (best === null || b - a < best[1] - best[0])) best = [a, b];
      }
      if (best) return best;
    }
    return null;
  }

  /** Word-bounded context within WORD_CONTEXT_CHARS each side: the fewest characters added. */
  words(start: number): [number, number] | null {
    const { text } = this;
    const end = start + this.match.length;
    const lefts = [start];
    for (let a = start - 1; a >= Math.max(0, start - WORD_CONTEXT_CHARS); a--) if (wordEdge(text, a)) lefts.push(a);
    const rights = [end];
    for (let b = end + 1; b <= Math.min(text.length, end + WORD_CONTEXT_CHARS); b++) if (wordEdge(text, b)) rights.push(b);
    let best: [number, number] | null = null;
    for (const a of lefts) {
      for (const b of rights) {
        if (best && b - a >= best[1] - best[0]) break;
        const found = this.unique(start, a, b);
        if (found === null) return best;
        if (found) best = [a, b];
      }
    }
    return best;
  }
}

function nextLineEnd(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl === -1 ? text.length : nl;
}

/** A boundary between a word character and anything else (or a line end), never inside a surrogate pair. */
function wordEdge(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return true;
  if (isLow(text, at)) return false;
  const word = (c: string) => /[\p{L}\p{N}_]/u.test(c);
  return word(text[at - 1]!) !== word(text[at]!) || text[at] === '\n' || text[at - 1] === '\n';
}

/**
 * The shortest context around the occurrence of `match` at `start` (one of `starts`, every occurrence)
 * that no other occurrence shares, or null when none within the limits does (identical repeated blocks).
 */
export function uniqueContext(text: string, match: string, start: number, starts: readonly number[]): UniqueContext | null {
  const search = new ContextSearch(text, match, starts);
  const end = start + match.length;
  const byLines = search.lines(start);
  const added = (w: [number, number]) => w[1] - w[0] - match.length;
  let window = byLines;
  if (!byLines || added(byLines) > LONG_CONTEXT_CHARS) {
    const byWords = search.words(start);
    if (byWords && (!byLines || added(byWords) < added(byLines))) window = byWords;
  }
  if (!window) return null;
  return { before: text.slice(window[0], start), after: text.slice(end, window[1]) };
}
