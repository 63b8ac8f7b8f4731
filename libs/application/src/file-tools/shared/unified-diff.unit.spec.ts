import fc from 'fast-check';
import { applyPatch, createTwoFilesPatch } from 'diff';
import { unifiedDiff } from './unified-diff';

const whole = (path: string, a: string, b: string) => createTwoFilesPatch(`a/${path}`, `b/${path}`, a, b, '', '', { context: 3 });

describe('unifiedDiff', () => {
  it('equals the whole-file diff with whole-file line numbers', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
    const before = lines.join('\n') + '\n';
    const after = before.replace('line 20\n', 'line twenty\nand more\n');
    expect(unifiedDiff('src/a.ts', before, after)).toBe(whole('src/a.ts', before, after));
    expect(unifiedDiff('src/a.ts', before, after)).toContain('@@ -17,7 +17,8 @@');
  });

  it('is a patch that turns the text before into the text after, for any single replacement (property)', () => {
    const line = fc.array(fc.constantFrom('a', 'b', '😀'), { maxLength: 3 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.nat(), fc.nat(), fc.array(line, { maxLength: 3 }), fc.boolean(), (ls, i, len, ins, endNl) => {
        const before = ls.join('\n') + (endNl ? '\n' : '');
        const cps = [...before];
        const from = cps.length ? i % cps.length : 0;
        const to = Math.min(cps.length, from + (len % 6));
        const after = cps.slice(0, from).join('') + ins.join('\n') + cps.slice(to).join('');
        expect(applyPatch(before, unifiedDiff('f', before, after))).toBe(after);
      }),
      { numRuns: 400 },
    );
  });
});
