/**
 * What the Markdown outline needs from a document, in UTF-16 offsets: the root blocks in order (headings
 * with their depth and heading text as written; every other block by its end) and the code blocks and
 * table rows anywhere, in document order.
 */
export type RootBlock = { heading: true; depth: number; start: number; end: number; name: string } | { heading: false; end: number };
export type Leaf = { kind: 'code'; start: number; end: number; lang: string | null } | { kind: 'row'; start: number; end: number; firstCell: string };

export interface MarkdownBlocks {
  root: RootBlock[];
  leaves: Leaf[];
}

/** Thrown inside the scan when a line needs the full parser; caught by scanMarkdownBlocks. */
class NeedsFullParse extends Error {}
const decline = (): never => {
  throw new NeedsFullParse();
};

const ATX = /^( {0,3})(#{1,6})(?= |$)/;
const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const LIST_ITEM = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?: |$)/;
const RULE_OR_UNDERLINE = /^ *[-*_=][-*_= ]*$/;
const DELIMITER_ROW = /^ {0,3}\|?(?: *:?-+:? *\|)*(?: *:?-+:? *)\|? *$/;
const INDENT = /^ */;

interface Line {
  start: number;
  /** Exclusive, before the line feed. */
  end: number;
  text: string;
}

/**
 * A block-level scan for the documents made of what it models exactly: ATX headings, fenced code,
 * GFM tables and paragraphs at the root, without tabs. Anything else (block quotes, lists, HTML
 * blocks, setext headings, thematic breaks, indented code, link reference definitions, escapes or
 * references in a fence's info) answers null, and the caller takes the full parse. For the documents it
 * accepts it gives what the full mdast parse gives (the differential test holds it to that); it skips
 * the inline parse, which is where the full parse spends its time.
 */
export function scanMarkdownBlocks(text: string): MarkdownBlocks | null {
  try {
    return new BlockScan(linesOf(text)).run();
  } catch (error) {
    if (error instanceof NeedsFullParse) return null;
    throw error;
  }
}

function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (;;) {
    const lf = text.indexOf('\n', start);
    const end = lf === -1 ? text.length : lf;
    lines.push({ start, end, text: text.slice(start, end) });
    if (lf === -1) return lines;
    start = lf + 1;
  }
}

class BlockScan {
  private readonly root: RootBlock[] = [];
  private readonly leaves: Leaf[] = [];
  /** The open paragraph's last line, or the open table's last row. */
  private paragraphEnd: number | null = null;
  private tableEnd: number | null = null;

  constructor(private readonly lines: Line[]) {}

  run(): MarkdownBlocks {
    for (let i = 0; i < this.lines.length; i++) i = this.line(i);
    this.closeOpen();
    return { root: this.root, leaves: this.leaves };
  }

  /** Handles line i (and the lines it takes with it); returns the last line consumed. */
  private line(i: number): number {
    const line = this.lines[i];
    const t = line.text;
    if (/^ *$/.test(t)) {
      this.closeOpen();
      return i;
    }
    this.refuseUnmodelled(t);
    const indent = INDENT.exec(t)![0].length;
    const atx = ATX.exec(t);
    if (atx) {
      this.closeOpen();
      this.root.push({ heading: true, depth: atx[2].length, start: line.start + indent, end: line.end, name: headingText(t.slice(atx[0].length)) });
      return i;
    }
    const fence = FENCE.exec(t);
    if (fence) {
      this.closeOpen();
      return this.fence(i, fence);
    }
    if (this.tableEnd !== null) {
      this.row(line, indent);
      return i;
    }
    const next = this.lines[i + 1];
    if (next && DELIMITER_ROW.test(next.text) && !RULE_OR_UNDERLINE.test(next.text)) {
      this.refuseUnmodelled(next.text);
      if (cells(t).length !== cells(next.text).length) decline();
      this.closeOpen();
      this.row(line, indent);
      this.tableEnd = next.end; // a table without body rows ends with its delimiter row
      return i + 1;
    }
    this.paragraphEnd = line.end;
    return i;
  }

  private refuseUnmodelled(t: string): void {
    if (t.includes('\t') || t.startsWith('    ')) decline();
    const first = t.trimStart()[0];
    if (first === '>' || first === '<') decline();
    if (first === '[' && (t.includes(']:') || !t.includes(']'))) decline();
    if (LIST_ITEM.test(t) || RULE_OR_UNDERLINE.test(t)) decline();
  }

  private fence(open: number, match: RegExpExecArray): number {
    const [, indent, marks, info] = match;
    if (marks[0] === '`' && info.includes('`')) decline();
    if (info.includes('\\') || info.includes('&')) decline();
    const line = this.lines[open];
    const lang = info.trimStart().split(' ')[0];
    const closing = new RegExp(`^ {0,3}${marks[0] === '`' ? '`' : '~'}{${marks.length},} *$`);
    for (let i = open + 1; i < this.lines.length; i++) {
      const t = this.lines[i].text;
      if (t.includes('\t') && t.trimStart().startsWith(marks[0])) decline();
      if (closing.test(t)) return this.code(line.start + indent.length, this.lines[i].end, lang, i);
    }
    return decline(); // an unclosed fence runs to the end of the document: left to the full parse
  }

  private code(start: number, end: number, lang: string, last: number): number {
    this.leaves.push({ kind: 'code', start, end, lang: lang || null });
    this.root.push({ heading: false, end });
    return last;
  }

  private row(line: Line, indent: number): void {
    const first = cells(line.text)[0] ?? '';
    this.leaves.push({ kind: 'row', start: line.start + indent, end: line.end, firstCell: first.trim() });
    this.tableEnd = line.end;
  }

  private closeOpen(): void {
    const end = this.tableEnd ?? this.paragraphEnd;
    if (end !== null) this.root.push({ heading: false, end });
    this.tableEnd = null;
    this.paragraphEnd = null;
  }
}

/** An ATX heading's text: without the opening run's spaces, a closing `#` run and trailing spaces. */
function headingText(rest: string): string {
  const content = rest.replace(/ +$/, '');
  if (/^ *#*$/.test(content)) return '';
  return content.replace(/ +#+$/, '').trim();
}

/** A table line's cells' raw text: split at pipes not escaped by a backslash, edge pipes dropped. */
export function cells(line: string): string[] {
  const t = line.trim();
  const out: string[] = [];
  let cell = '';
  let endsWithPipe = false;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    endsWithPipe = false;
    if (c === '\\' && (t[i + 1] === '|' || t[i + 1] === '\\')) {
      cell += c + t[i + 1];
      i++;
    } else if (c === '|') {
      out.push(cell);
      cell = '';
      endsWithPipe = true;
    } else cell += c;
  }
  if (!endsWithPipe) out.push(cell);
  if (t.startsWith('|')) out.shift();
  return out;
}

/** HTML blocks that run across blank lines (CommonMark types 1-5): a document holding one is not split. */
const LONG_HTML = /<(?:!--|\?|![A-Za-z]|!\[CDATA\[|script|pre|style|textarea)/i;
/** A fence's opening line (a backtick fence's info holds no backtick). */
const FENCE_OPEN = /^ {0,3}(`{3,}(?![^`]*`)|~{3,})/;

/**
 * The document's lines split where every block before has ended: a line at column 0 after a blank line
 * that continues no container (no list marker, no `>`), outside any fence at the root. A fence line that
 * may sit in a list item, a quote or an HTML block can be ended by (or be) something else than a fence,
 * so after one nothing more is split. Returns the UTF-16 offsets where pieces start (0 first).
 */
export function pieceStarts(text: string): number[] {
  const starts = [0];
  if (LONG_HTML.test(text)) return starts;
  let fence: RegExp | null = null; // the open root fence's closing line
  let inContainer = false;
  let previousBlank = false;
  let at = 0;
  for (const line of text.split('\n')) {
    if (fence !== null) {
      if (fence.test(line)) fence = null;
    } else {
      const blank = /^[ \t]*$/.test(line);
      if (previousBlank && !blank && /^[^ \t>]/.test(line) && !LIST_ITEM.test(line)) {
        if (at > 0) starts.push(at);
        inContainer = false;
      }
      if (LIST_ITEM.test(line) || /^ {0,3}[><]/.test(line)) inContainer = true; // an HTML block can hold a fence line too
      const opened = FENCE_OPEN.exec(line);
      if (opened && inContainer) return starts;
      if (opened) fence = new RegExp(`^ {0,3}${opened[1][0]}{${opened[1].length},}[ \\t]*$`);
      previousBlank = blank;
    }
    at += line.length + 1;
  }
  return starts;
}
