import fc from 'fast-check';
import { applyRewrite, planRewrite, splitIntoChunks } from './chunk-layout';

const hasLoneSurrogate = (s: string) => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
const textArb = fc.array(fc.constantFrom('a', 'b', '\n', 'é', '😀', '𠀀', 'xyz'), { maxLength: 80 }).map((a) => a.join(''));

describe('chunk layout', () => {
  it('splits without breaking surrogate pairs and reassembles exactly', () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: 2, max: 9 }), (text, size) => {
        const chunks = splitIntoChunks(text, size);
        expect(chunks.join('')).toBe(text);
        for (const c of chunks) {
          expect(c.length).toBeGreaterThan(0);
          expect(c.length).toBeLessThanOrEqual(size);
          expect(hasLoneSurrogate(c)).toBe(false);
        }
      }),
    );
  });

  it('a rewrite reproduces the next text and keeps every chunk valid', () => {
    fc.assert(
      fc.property(textArb, textArb, fc.integer({ min: 0, max: 80 }), fc.integer({ min: 0, max: 10 }), fc.integer({ min: 2, max: 9 }), (base, insert, at, del, size) => {
        const old = splitIntoChunks(base, size);
        const cps = [...base];
        const pos = Math.min(at, cps.length);
        cps.splice(pos, del, ...insert);
        const next = cps.join('');
        const plan = planRewrite(old, next, size);
        const chunks = applyRewrite(old, plan);
        expect(chunks.join('')).toBe(next);
        for (const c of chunks) expect(hasLoneSurrogate(c)).toBe(false);
        if (next === base) expect(plan).toBeNull();
      }),
    );
  });

  it('rewrites only the chunk an edit touches', () => {
    const old = splitIntoChunks('a'.repeat(100), 10);
    const next = `${'a'.repeat(55)}XY${'a'.repeat(45)}`;
    expect(planRewrite(old, next, 10)).toEqual({ from: 5, deleteCount: 1, insert: ['aaaaaXYaaaaa'] });
  });

  it('starts from nothing and empties to nothing', () => {
    expect(planRewrite([], 'abc', 2)).toEqual({ from: 0, deleteCount: 0, insert: ['ab', 'c'] });
    expect(applyRewrite(['ab', 'c'], planRewrite(['ab', 'c'], '', 2))).toEqual([]);
  });
});

describe('chunk layout with a runtime hint', () => {
  it('gives the same plan as the full comparison whenever the hint is truthful', () => {
    fc.assert(
      fc.property(textArb, textArb, fc.integer({ min: 0, max: 80 }), fc.integer({ min: 0, max: 10 }), fc.integer({ min: 2, max: 9 }), (base, insert, at, del, size) => {
        const old = splitIntoChunks(base, size);
        const units = Math.min(at, base.length);
        const start = units > 0 && /[\ud800-\udbff]/.test(base[units - 1]) ? units - 1 : units;
        const end = Math.min(base.length, start + del);
        const safeEnd = end < base.length && /[\udc00-\udfff]/.test(base[end]) ? end + 1 : end;
        const next = base.slice(0, start) + insert + base.slice(safeEnd);
        const hint = { unchangedPrefix: start, unchangedSuffix: base.length - safeEnd };
        expect(applyRewrite(old, planRewrite(old, next, size, hint)).join('')).toBe(next);
        expect(planRewrite(old, next, size, hint)).toEqual(planRewrite(old, next, size));
      }),
    );
  });
});
