import { pageLineStarts, scanLines } from './lines';

const EMOJI = '\u{1F600}';

describe('scanLines', () => {
  const scan = (text: string, startLine: number, endLine: number | null, offset = 0) =>
    scanLines(text, { startLine, endLine, offset, bmpOnly: !/[\uD800-\uDFFF]/.test(text) });

  it('counts LF-only lines, with a final empty line after a trailing LF', () => {
    expect(scan('a\nb\nc', 1, null).totalLines).toBe(3);
    expect(scan('a\nb\n', 1, null).totalLines).toBe(3);
    expect(scan('', 1, null).totalLines).toBe(1);
    expect(scan('a\r\nb', 1, null).totalLines).toBe(2); // canonical text has no CR; a stray one is not a break
  });

  it('finds the unit range of an inclusive line selection', () => {
    expect(scan('a\nbb\nccc', 2, 2)).toMatchObject({ rangeStartUnit: 2, rangeEndUnit: 5, totalLines: 3 });
    expect(scan('a\nbb\nccc', 2, null)).toMatchObject({ rangeStartUnit: 2, rangeEndUnit: 8 });
    expect(scan('a\nbb\n', 3, 3)).toMatchObject({ rangeStartUnit: 5, rangeEndUnit: 5 });
  });

  it('reports a missing start line and still counts total_lines', () => {
    expect(scan('a\nb', 5, null)).toMatchObject({ rangeStartUnit: null, totalLines: 2 });
  });

  it('locates the line under the page start, in code points from the range start', () => {
    const text = `${EMOJI}\nab\ncd`; // units: 😀=0..1, LF=2, a=3, b=4, LF=5, c=6
    expect(scan(text, 1, null, 2)).toMatchObject({ pageStartUnit: 3, pageLine: 2 });
    expect(scan(text, 1, null, 1)).toMatchObject({ pageStartUnit: 2, pageLine: 1 });
    expect(scan(text, 2, null, 3)).toMatchObject({ pageStartUnit: 6, pageLine: 3 });
  });
});

describe('pageLineStarts', () => {
  const frame = { startCp: 0, line: 1, endLine: 3, final: true, bmpOnly: true };

  it('lists selected lines that start inside [start, end)', () => {
    // "ab\ncd\nef": lines start at 0, 3, 6
    const text = 'ab\ncd\nef';
    expect(pageLineStarts(text, { ...frame, startUnit: 0, endUnit: 3, final: false })).toEqual([{ line: 1, start: 0 }]);
    expect(pageLineStarts(text, { ...frame, startUnit: 1, startCp: 1, endUnit: 4, final: false })).toEqual([{ line: 2, start: 3 }]);
    expect(pageLineStarts(text, { ...frame, startUnit: 3, startCp: 3, line: 2, endUnit: 8 })).toEqual([
      { line: 2, start: 3 },
      { line: 3, start: 6 },
    ]);
  });

  it('lets the final page claim an empty last selected line at its end', () => {
    const text = 'ab\n'; // line 2 is empty and starts at 3
    const base = { ...frame, endLine: 2, startUnit: 0, endUnit: 3 };
    expect(pageLineStarts(text, base)).toEqual([
      { line: 1, start: 0 },
      { line: 2, start: 3 },
    ]);
    expect(pageLineStarts(text, { ...base, final: false })).toEqual([{ line: 1, start: 0 }]);
  });

  it('never lists end_line + 1, even when it starts at the final page end', () => {
    expect(pageLineStarts('ab\ncd', { ...frame, endLine: 1, startUnit: 0, endUnit: 3 })).toEqual([
      { line: 1, start: 0 },
    ]);
  });

  it('converts starts to code points on astral text', () => {
    const text = `${EMOJI}\n${EMOJI}x\ny`;
    expect(pageLineStarts(text, { ...frame, bmpOnly: false, startUnit: 0, endUnit: text.length })).toEqual([
      { line: 1, start: 0 },
      { line: 2, start: 2 },
      { line: 3, start: 5 },
    ]);
  });
});
