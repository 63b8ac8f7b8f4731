import fc from 'fast-check';
import { hasLoneSurrogate } from '../text/code-points';
import { LinesPage, readLines, ReadLinesArgs } from './read-lines';
import { readTargetSlice } from './read-target';
import { errorOf, value } from '../errors/test-support/checked';

const EMOJI = '\u{1F600}';
const EXT_B = '\u{20000}';

/** Reference model in code points: starts of every line, by Array.from. */
function referenceStarts(text: string): number[] {
  const starts = [0];
  Array.from(text).forEach((ch, i) => ch === '\n' && starts.push(i + 1));
  return starts;
}

function referenceRange(text: string, startLine: number, endLine: number) {
  const starts = referenceStarts(text);
  const end = endLine < starts.length ? starts[endLine] : Array.from(text).length;
  return { start: starts[startLine - 1], end, text: Array.from(text).slice(starts[startLine - 1], end).join('') };
}

/** Follows next_offset from offset 0 and returns every page. */
function allPages(text: string, args: ReadLinesArgs): LinesPage[] {
  const pages: LinesPage[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const page: LinesPage = value(readLines(text, { ...args, offset }));
    pages.push(page);
    offset = page.next_offset;
  }
  return pages;
}

describe('readLines: line model', () => {
  it('reads every line by default, each with its trailing LF', () => {
    expect(value(readLines('a\nbb\nccc', {}))).toEqual({
      total_chars: 8,
      total_lines: 3,
      start_line: 1,
      end_line: 3,
      range_start: 0,
      range_end: 8,
      start: 0,
      end: 8,
      text: 'a\nbb\nccc',
      truncated: false,
      next_offset: null,
      next_start: null,
    });
  });

  it('treats end_line as inclusive and keeps the LF with its line', () => {
    expect(value(readLines('a\nbb\nccc', { start_line: 2, end_line: 2 }))).toMatchObject({
      range_start: 2,
      range_end: 5,
      text: 'bb\n',
    });
    expect(value(readLines('a\nbb\nccc', { start_line: 1, end_line: 2 })).text).toBe('a\nbb\n');
  });

  it('gives a trailing LF a final empty line', () => {
    const page = value(readLines('a\nb\n', { start_line: 3, include_line_starts: true }));
    expect(page).toMatchObject({ total_lines: 3, range_start: 4, range_end: 4, text: '', truncated: false });
    expect(page.line_starts).toEqual([{ line: 3, start: 4 }]);
  });

  it('gives an empty target one empty line', () => {
    const page = value(readLines('', { include_line_starts: true }));
    expect(page).toMatchObject({ total_chars: 0, total_lines: 1, start_line: 1, end_line: 1, text: '' });
    expect(page.line_starts).toEqual([{ line: 1, start: 0 }]);
  });

  it('accepts explicit nulls as defaults', () => {
    const page = value(
      readLines('a\nb', { start_line: null, end_line: null, offset: null, max_chars: null, include_line_starts: null }),
    );
    expect(page).toMatchObject({ start_line: 1, end_line: 2, text: 'a\nb' });
    expect(page).not.toHaveProperty('line_starts');
  });
});

describe('readLines: paging', () => {
  const long = 'x'.repeat(9000) + '\n' + 'y'.repeat(9000);

  it('defaults max_chars to 4,000 and caps it at 8,000', () => {
    expect(value(readLines(long, {})).end).toBe(4000);
    expect(value(readLines(long, { max_chars: 20_000 })).end).toBe(8000);
  });

  it('returns a relative next_offset and an absolute next_start', () => {
    const page = value(readLines('aaa\nbbbb\ncc', { start_line: 2, max_chars: 3 }));
    expect(page).toMatchObject({ range_start: 4, start: 4, end: 7, text: 'bbb', truncated: true });
    expect(page).toMatchObject({ next_offset: 3, next_start: 7 });
    const next = value(readLines('aaa\nbbbb\ncc', { start_line: 2, max_chars: 3, offset: 3 }));
    expect(next).toMatchObject({ start: 7, end: 10, text: 'b\nc', next_offset: 6, next_start: 10 });
  });

  it('returns an empty final page at offset == range length', () => {
    const page = value(readLines('ab\ncd', { end_line: 1, offset: 3, include_line_starts: true }));
    expect(page).toMatchObject({ start: 3, end: 3, text: '', truncated: false, next_offset: null, next_start: null });
    expect(page.line_starts).toEqual([]);
  });

  it('refuses an offset past the range', () => {
    expect(errorOf(readLines('ab\ncd', { end_line: 1, offset: 4 }))).toMatchObject({
      code: 'offset_out_of_range',
      argument: 'offset',
      range_length: 3,
    });
  });
});

describe('readLines: refusals', () => {
  const text = 'a\nb\nc';
  const cases: [ReadLinesArgs, string, string][] = [
    [{ start_line: 0 }, 'line_out_of_range', 'start_line'],
    [{ start_line: -2 }, 'line_out_of_range', 'start_line'],
    [{ end_line: 0 }, 'line_out_of_range', 'end_line'],
    [{ start_line: 4 }, 'line_out_of_range', 'start_line'],
    [{ end_line: 4 }, 'line_out_of_range', 'end_line'],
    [{ start_line: 3, end_line: 2 }, 'invalid_line_range', 'end_line'],
    [{ offset: -1 }, 'offset_out_of_range', 'offset'],
    [{ max_chars: 0 }, 'invalid_max_chars', 'max_chars'],
    [{ max_chars: -5 }, 'invalid_max_chars', 'max_chars'],
    [{ start_line: 1.5 }, 'line_out_of_range', 'start_line'],
  ];

  it.each(cases)('%j → %s', (args, code, argument) => {
    const error = errorOf(readLines(text, args));
    expect(error).toMatchObject({ status: 'invalid_argument', code, argument });
    expect(error.failure_detail.length).toBeGreaterThan(0);
  });

  it('reports total_lines when a line is out of range', () => {
    expect(errorOf(readLines(text, { start_line: 9 }))).toMatchObject({ total_lines: 3 });
  });
});

describe('readLines: line_starts', () => {
  it('lists lines that begin inside the page, not one starting at a non-final page end', () => {
    const text = 'ab\ncd\nef'; // lines start at 0, 3, 6
    const first = value(readLines(text, { max_chars: 3, include_line_starts: true }));
    expect(first.line_starts).toEqual([{ line: 1, start: 0 }]);
    const second = value(readLines(text, { max_chars: 3, offset: 3, include_line_starts: true }));
    expect(second.line_starts).toEqual([{ line: 2, start: 3 }]);
    const middle = value(readLines(text, { max_chars: 4, offset: 1, include_line_starts: true }));
    expect(middle.line_starts).toEqual([{ line: 2, start: 3 }]);
  });

  it('lets the final page claim an empty last line that starts at its end', () => {
    const page = value(readLines('ab\n', { include_line_starts: true }));
    expect(page.line_starts).toEqual([
      { line: 1, start: 0 },
      { line: 2, start: 3 },
    ]);
    const explicitEmpty = value(readLines('ab\n', { offset: 3, include_line_starts: true }));
    expect(explicitEmpty).toMatchObject({ text: '', line_starts: [{ line: 2, start: 3 }] });
  });

  it('never lists the line after end_line', () => {
    const page = value(readLines('ab\ncd', { end_line: 1, include_line_starts: true }));
    expect(page.line_starts).toEqual([{ line: 1, start: 0 }]);
  });

  it('reports astral offsets in code points', () => {
    const text = `${EMOJI}\n${EXT_B}x\ny`;
    const page = value(readLines(text, { start_line: 2, include_line_starts: true }));
    expect(page).toMatchObject({ total_chars: 6, range_start: 2, range_end: 6, text: `${EXT_B}x\ny` });
    expect(page.line_starts).toEqual([
      { line: 2, start: 2 },
      { line: 3, start: 5 },
    ]);
    const paged = value(readLines(text, { start_line: 2, offset: 1, max_chars: 2 }));
    expect(paged).toMatchObject({ start: 3, end: 5, text: 'x\n', next_offset: 3, next_start: 5 });
  });

  it('reads one line of a 1 MB BMP target', () => {
    const big = 'abcdefghi\n'.repeat(100_000);
    const page = value(readLines(big, { start_line: 99_999, end_line: 99_999, include_line_starts: true }));
    expect(page).toMatchObject({ total_lines: 100_001, range_start: 999_980, text: 'abcdefghi\n' });
    expect(page.line_starts).toEqual([{ line: 99_999, start: 999_980 }]);
  });
});

describe('readLines: properties', () => {
  const lineText = fc
    .array(fc.constantFrom('a', 'b', '\n', '\n', 'é', EMOJI, EXT_B), { maxLength: 50 })
    .map((parts) => parts.join(''));
  const query = lineText.chain((text) => {
    const total = referenceStarts(text).length;
    return fc.record({
      text: fc.constant(text),
      startLine: fc.integer({ min: 1, max: total }),
      span: fc.nat(total),
      maxChars: fc.integer({ min: 1, max: 8 }),
    });
  });
  const endOf = (q: { startLine: number; span: number; text: string }) =>
    Math.min(q.startLine + q.span, referenceStarts(q.text).length);

  it('matches the reference range, totals and never splits a pair', () => {
    fc.assert(
      fc.property(query, (q) => {
        const endLine = endOf(q);
        const page = value(readLines(q.text, { start_line: q.startLine, end_line: endLine, max_chars: 1000 }));
        const ref = referenceRange(q.text, q.startLine, endLine);
        expect(page).toMatchObject({ range_start: ref.start, range_end: ref.end, text: ref.text });
        expect(page.total_lines).toBe(referenceStarts(q.text).length);
        expect(page.total_chars).toBe(Array.from(q.text).length);
        expect(hasLoneSurrogate(page.text)).toBe(false);
      }),
    );
  });

  it('reproduces the range text via next_offset and lists every selected line start once', () => {
    fc.assert(
      fc.property(query, (q) => {
        const endLine = endOf(q);
        const args = { start_line: q.startLine, end_line: endLine, max_chars: q.maxChars, include_line_starts: true };
        const pages = allPages(q.text, args);
        expect(pages.map((p) => p.text).join('')).toBe(referenceRange(q.text, q.startLine, endLine).text);
        const expected = referenceStarts(q.text)
          .slice(q.startLine - 1, endLine)
          .map((start, i) => ({ line: q.startLine + i, start }));
        expect(pages.flatMap((p) => p.line_starts ?? [])).toEqual(expected);
      }),
    );
  });

  it('continues correctly through read_target from next_start', () => {
    fc.assert(
      fc.property(query, (q) => {
        const args = { start_line: q.startLine, end_line: endOf(q), max_chars: q.maxChars };
        const pages = allPages(q.text, args);
        pages.slice(0, -1).forEach((page, i) => {
          const next = pages[i + 1];
          const viaTarget = value(readTargetSlice(q.text, { start: page.next_start, length: q.maxChars }));
          expect(viaTarget.start).toBe(next.start);
          expect(viaTarget.text.startsWith(next.text)).toBe(true);
        });
      }),
    );
  });
});
