import fc from 'fast-check';
import { occurrencesOf, uniqueContext } from './unique-context';

const count = (text: string, needle: string) => occurrencesOf(text, needle).length;

describe('occurrencesOf', () => {
  it('counts overlapping occurrences, each with its line', () => {
    expect(occurrencesOf('aaa\nxaa\n', 'aa')).toEqual([
      { start: 0, line: 1 },
      { start: 1, line: 1 },
      { start: 5, line: 2 },
    ]);
  });
});

describe('uniqueContext', () => {
  it('prefers the rest of the line, then the fewest whole lines', () => {
    const text = 'let x = 1;\nlet y = 2;\nlet x = 1;\nlet z = 3;\n';
    const starts = occurrencesOf(text, 'x = 1').map((o) => o.start);
    expect(uniqueContext(text, 'x = 1', starts[0]!, starts)).toEqual({ before: 'let ', after: ';\nlet y = 2;' });
    expect(uniqueContext(text, 'x = 1', starts[1]!, starts)).toEqual({ before: 'let ', after: ';\nlet z = 3;' });
  });

  it('takes the line above when the one below does not tell the occurrences apart', () => {
    const text = 'function a() {\n  return null;\n}\nfunction b() {\n  return null;\n}\n';
    const starts = occurrencesOf(text, '  return null;').map((o) => o.start);
    expect(uniqueContext(text, '  return null;', starts[1]!, starts)).toEqual({ before: 'function b() {\n', after: '' });
  });

  it('uses a few words instead of a long paragraph line', () => {
    const filler = 'word '.repeat(60);
    const text = `${filler}the archive opens at nine ${filler}\n${filler}the archive closes at five ${filler}\n`;
    const starts = occurrencesOf(text, 'the archive').map((o) => o.start);
    const c = uniqueContext(text, 'the archive', starts[1]!, starts)!;
    expect(c).toEqual({ before: '', after: ' closes' });
  });

  it('gives up on identical repeated blocks', () => {
    const text = 'x\n'.repeat(400);
    const starts = occurrencesOf(text, 'x').map((o) => o.start);
    expect(uniqueContext(text, 'x', starts[200]!, starts)).toBeNull();
  });

  it('never splits a surrogate pair', () => {
    const text = '😀a😀b 😀a😀c';
    const starts = occurrencesOf(text, 'a').map((o) => o.start);
    const c = uniqueContext(text, 'a', starts[0]!, starts)!;
    expect([...c.before].every((ch) => ch.length === 2 || ch.charCodeAt(0) < 0xd800 || ch.charCodeAt(0) > 0xdfff)).toBe(true);
    expect(count(text, c.before + 'a' + c.after)).toBe(1);
  });

  it('names exactly the occurrence it was asked for, whatever the text (property)', () => {
    const line = fc.constantFrom('}', '  return x;', 'a', 'b c', '', 'let x = 1;', '😀 d');
    fc.assert(
      fc.property(fc.array(line, { minLength: 2, maxLength: 30 }), fc.constantFrom('x', '}', 'a', ' ', '\n'), fc.nat(), (lines, match, pick) => {
        const text = lines.join('\n');
        const found = occurrencesOf(text, match);
        if (found.length < 2) return;
        const starts = found.map((o) => o.start);
        const start = starts[pick % starts.length]!;
        const c = uniqueContext(text, match, start, starts);
        if (c === null) return;
        const window = c.before + match + c.after;
        expect(text.slice(start - c.before.length, start + match.length + c.after.length)).toBe(window);
        expect(count(text, window)).toBe(1);
      }),
      { numRuns: 300 },
    );
  });
});
