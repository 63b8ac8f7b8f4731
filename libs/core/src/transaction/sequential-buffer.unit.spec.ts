import fc from 'fast-check';
import { SequentialBuffer, unitsToCodePoints } from './sequential-buffer';

describe('SequentialBuffer', () => {
  it('tracks code-point length and the astral flag across replacements', () => {
    const buf = new SequentialBuffer('abc');
    expect(buf.bmpOnly).toBe(true);
    buf.replace(1, 2, '\u{1F600}\u{1F600}', { change_id: 'a', change_index: 1, start: 1, end: 2, replacement_chars: 2 });
    expect(buf.text).toBe('a\u{1F600}\u{1F600}c');
    expect(buf.length).toBe(4);
    expect(buf.bmpOnly).toBe(false);
    expect(buf.toUnit(3)).toBe(5);
    expect(buf.toCodePoint(5)).toBe(3);
    expect(buf.priorChanges).toBe(1);
  });

  it('finds the earlier change that consumed a transaction-start range', () => {
    const buf = new SequentialBuffer('0123456789');
    buf.replace(8, 10, '', { change_id: 'tail', change_index: 1, start: 8, end: 10, replacement_chars: 0 });
    buf.replace(0, 0, 'xxxx', { change_id: 'head', change_index: 2, start: 0, end: 0, replacement_chars: 4 });
    buf.replace(7, 7, '-', { change_id: 'mid', change_index: 3, start: 7, end: 7, replacement_chars: 1 });
    expect(buf.text).toBe('xxxx012-34567');
    expect(buf.consumerOf(8, 9)?.change_id).toBe('tail');
    expect(buf.consumerOf(2, 4)?.change_id).toBe('mid');
    expect(buf.consumerOf(0, 2)).toBeNull(); // the insertion at 0 sits before it
    expect(buf.consumerOf(3, 6)).toBeNull(); // the insertion at original 3 touches its start only
  });
});

describe('unitsToCodePoints', () => {
  it('converts ascending UTF-16 indexes like a code-point array walk', () => {
    const cp = fc.constantFrom('a', '\u00e9', '\u{1F600}', '\u{20000}');
    fc.assert(
      fc.property(fc.array(cp, { maxLength: 30 }), fc.array(fc.nat(30)), (cps, picks) => {
        const text = cps.join('');
        const unitOf: number[] = [];
        let unit = 0;
        for (const c of cps) {
          unitOf.push(unit);
          unit += c.length;
        }
        unitOf.push(unit);
        const chosen = picks.map((p) => p % unitOf.length);
        expect(unitsToCodePoints(text, chosen.map((i) => unitOf[i]))).toEqual(chosen);
      }),
    );
  });
});

describe('SequentialBuffer dirty range', () => {
  it('outside the dirty range the text equals the original, at both ends', () => {
    const fcx = require('fast-check') as typeof import('fast-check');
    fcx.assert(
      fcx.property(
        fcx.string({ maxLength: 40 }),
        fcx.array(fcx.tuple(fcx.nat(50), fcx.nat(6), fcx.string({ maxLength: 5 })), { maxLength: 6 }),
        (original, edits) => {
          const buf = new SequentialBuffer(original);
          edits.forEach(([at, del, ins], i) => {
            const start = Math.min(at, buf.text.length);
            const end = Math.min(buf.text.length, start + del);
            buf.replace(start, end, ins, { change_id: `c${i}`, change_index: i + 1, start, end, replacement_chars: ins.length });
          });
          const d = buf.dirty;
          if (!d) return expect(buf.text).toBe(original);
          expect(buf.text.slice(0, d.start)).toBe(original.slice(0, d.start));
          const suffix = buf.text.length - d.end;
          expect(buf.text.slice(buf.text.length - suffix)).toBe(original.slice(original.length - suffix));
          expect(d.start).toBeLessThanOrEqual(d.end);
        },
      ),
    );
  });
});
