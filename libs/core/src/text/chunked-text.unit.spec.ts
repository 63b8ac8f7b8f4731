import fc from 'fast-check';
import { ChunkedText } from './chunked-text';
import { sha256Hex } from './sha256';

const piece = fc.array(fc.constantFrom('a', 'b', '\n', 'é', '😀', '漢'), { maxLength: 12 }).map((a) => a.join(''));

/** Code-point operations on a plain string: the model the chunked text must match. */
const cps = (s: string) => Array.from(s);

describe('ChunkedText', () => {
  it('splices, slices and hashes like the joined string, with chunks that never split a surrogate pair', () => {
    fc.assert(
      fc.property(piece, fc.integer({ min: 2, max: 9 }), fc.array(fc.tuple(fc.nat(), fc.nat(), piece), { maxLength: 25 }), (initial, size, edits) => {
        const text = ChunkedText.of(initial, size);
        let model = initial;
        expect(text.sha256()).toBe(sha256Hex(model));
        for (const [a, b, insert] of edits) {
          const n = cps(model).length;
          const start = n ? a % (n + 1) : 0;
          const end = start + (n - start ? b % (n - start + 1) : 0);
          expect(text.slice(start, end)).toBe(cps(model).slice(start, end).join(''));
          const before = text.chunkTexts;
          const s = text.splice(start, end, insert);
          model = [...cps(model).slice(0, start), insert, ...cps(model).slice(end)].join('');
          expect([...before.slice(0, s.from), ...s.insert, ...before.slice(s.from + s.deleteCount)]).toEqual(text.chunkTexts);
          expect(text.toString()).toBe(model);
          expect(text.length).toBe(cps(model).length);
          expect(text.sha256()).toBe(sha256Hex(model));
          for (const c of text.chunkTexts) expect(c.length).toBeGreaterThan(0);
          for (const c of text.chunkTexts) expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(c)).toBe(false);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('replaces the whole text keeping the chunks inside the unchanged prefix', () => {
    const text = ChunkedText.of('abcdefghij', 3);
    expect(text.chunkTexts).toEqual(['abc', 'def', 'ghi', 'j']);
    const s = text.assign('abcdefXY', 6);
    expect(s).toEqual({ from: 2, deleteCount: 2, insert: ['XY'] });
    expect(text.toString()).toBe('abcdefXY');
    expect(text.sha256()).toBe(sha256Hex('abcdefXY'));
  });

  it('undoes an edit of several splices back to the same text and hash', () => {
    const text = ChunkedText.of('0123456789'.repeat(5), 4);
    const edit = text.beginEdit();
    edit.splice(3, 5, 'xyz', text.slice(3, 5));
    edit.splice(30, 31, '', text.slice(30, 31));
    edit.undo();
    expect(text.toString()).toBe('0123456789'.repeat(5));
    expect(text.sha256()).toBe(sha256Hex('0123456789'.repeat(5)));
  });

  it('marks the chunks between two far edits as the same ones, so a store writes only the edited two', () => {
    const text = ChunkedText.of('0123456789'.repeat(5), 10);
    const old = text.chunkTexts;
    const edit = text.beginEdit();
    edit.splice(2, 3, 'X', text.slice(2, 3));
    edit.splice(45, 46, 'Y', text.slice(45, 46));
    const splice = edit.done()!;
    expect(splice).toMatchObject({ from: 0, deleteCount: 5, same: [false, true, true, true, false] });
    expect([...old.slice(0, splice.from), ...splice.insert, ...old.slice(splice.from + splice.deleteCount)]).toEqual(text.chunkTexts);
    const grown = text.beginEdit();
    grown.splice(1, 1, 'abcdefghijklmnopqrstuvwxyz', '');
    expect(grown.done()!.same).toBeUndefined(); // the run was cut into more chunks: every one is written
  });
});
