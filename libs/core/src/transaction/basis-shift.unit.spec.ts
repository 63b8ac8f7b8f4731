import fc from 'fast-check';
import { basisShift, toTransactionStart } from './basis-shift';
import { SequentialBuffer } from './sequential-buffer';
import type { AppliedSpan } from './sequential-buffer';

/** Apply code-point replacements to a SequentialBuffer the way the transaction loop does. */
function buffer(text: string, changes: Array<[number, number, string]>): SequentialBuffer {
  const buf = new SequentialBuffer(text);
  changes.forEach(([start, end, replacement], i) => {
    const span = { change_id: `c${i + 1}`, change_index: i + 1, start, end, replacement_chars: [...replacement].length };
    buf.replace(buf.toUnit(start), buf.toUnit(end), replacement, span);
  });
  return buf;
}

describe('toTransactionStart', () => {
  const applied = (start: number, end: number, replacement_chars: number): AppliedSpan => ({
    change_id: 'c',
    change_index: 1,
    start,
    end,
    replacement_chars,
  });

  it('shifts ranges after a change and keeps ranges before it', () => {
    const changes = [applied(2, 4, 5)]; // 2 code points became 5
    expect(toTransactionStart(changes, 0, 2)).toEqual({ start: 0, end: 2 });
    expect(toTransactionStart(changes, 7, 9)).toEqual({ start: 4, end: 6 });
  });

  it('refuses ranges that overlap produced text or straddle a deletion point', () => {
    expect(toTransactionStart([applied(2, 4, 5)], 6, 8)).toBeNull();
    expect(toTransactionStart([applied(2, 4, 5)], 1, 3)).toBeNull();
    expect(toTransactionStart([applied(2, 4, 0)], 1, 3)).toBeNull();
    expect(toTransactionStart([applied(2, 4, 0)], 2, 3)).toEqual({ start: 4, end: 5 });
    expect(toTransactionStart([applied(2, 2, 1)], 2, 3)).toBeNull(); // begins with the inserted code point
  });

  it('accepts a range whose two sides a later deletion brought back together', () => {
    // Insert two code points at 3, then delete them again: [2, 4) is original [2, 4) once more.
    expect(toTransactionStart([applied(3, 3, 2), applied(3, 5, 0)], 2, 4)).toEqual({ start: 2, end: 4 });
    expect(toTransactionStart([applied(3, 3, 2), applied(3, 4, 0)], 2, 4)).toBeNull(); // one produced code point is left
  });

  it('ignores a change that neither removed nor inserted anything', () => {
    expect(toTransactionStart([applied(2, 2, 0)], 1, 3)).toEqual({ start: 1, end: 3 });
  });

  it('agrees with a provenance-tracking reference on random change sequences', () => {
    // undo === 0 deletes exactly what the previous change produced, the case that rejoins original text.
    const step = fc.record({ a: fc.nat(40), b: fc.nat(3), r: fc.nat(2), undo: fc.nat(3) });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12 }), fc.array(step, { maxLength: 6 }), fc.nat(40), fc.nat(40), (n0, steps, x, y) => {
        // Each cell remembers its transaction-start offset, or -1 when a change produced it.
        let cells = Array.from({ length: n0 }, (_, i) => i);
        const changes: AppliedSpan[] = [];
        for (const { a, b, r: wanted, undo } of steps) {
          const previous = changes[changes.length - 1];
          const rejoin = undo === 0 && previous !== undefined && previous.replacement_chars > 0;
          const start = rejoin ? previous.start : a % (cells.length + 1);
          const end = rejoin ? start + previous.replacement_chars : start + (b % (cells.length - start + 1));
          const r = rejoin ? 0 : wanted;
          changes.push({ change_id: 'c', change_index: changes.length + 1, start, end, replacement_chars: r });
          cells = [...cells.slice(0, start), ...Array<number>(r).fill(-1), ...cells.slice(end)];
        }
        if (cells.length === 0) return;
        const start = x % cells.length;
        const end = start + 1 + (y % (cells.length - start));
        const picked = cells.slice(start, end);
        const untouched = picked.every((o, i) => o >= 0 && o === picked[0] + i);
        const expected = untouched ? { start: picked[0], end: picked[0] + picked.length } : null;
        expect(toTransactionStart(changes, start, end)).toEqual(expected);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('basisShift', () => {
  it('says nothing for the first change of a transaction', () => {
    expect(basisShift(new SequentialBuffer('foo foo'), 'foo', 2, 4, 7)).toBeNull();
  });

  it('names the transaction-start index when the sequential index points at a later occurrence', () => {
    const buf = buffer('foo foo foo', [[0, 3, 'bar']]);
    // "bar foo foo": sequential occurrence 2 starts at 8, which was occurrence 3 at transaction start.
    expect(basisShift(buf, 'foo', 2, 8, 11)).toEqual({ occurrence_index: 2, transaction_start_occurrence_index: 3, prior_changes: 1 });
    expect(basisShift(buf, 'foo', 1, 4, 7)).toEqual({ occurrence_index: 1, transaction_start_occurrence_index: 2, prior_changes: 1 });
  });

  it('says nothing when the index still names the same occurrence', () => {
    const buf = buffer('foo foo foo', [[8, 11, 'bar']]);
    expect(basisShift(buf, 'foo', 2, 4, 7)).toBeNull();
  });

  it('reports null for text produced or joined by earlier changes', () => {
    expect(basisShift(buffer('cat cat', [[0, 3, 'dog']]), 'dog', 1, 0, 3)).toMatchObject({ transaction_start_occurrence_index: null });
    expect(basisShift(buffer('abXcd', [[2, 3, '']]), 'bc', 1, 1, 3)).toMatchObject({ transaction_start_occurrence_index: null });
  });

  it('counts overlapping occurrences and astral text in code points', () => {
    // "\u{1F600}aaa": "aa" occurs at 1 and 2; after deleting the emoji the second is sequential 2 and original 2.
    const buf = buffer('\u{1F600}aaa', [[0, 1, '']]);
    expect(basisShift(buf, 'aa', 2, 1, 3)).toBeNull();
    const grown = buffer('\u{1F600}aaa', [[0, 1, 'aa']]);
    // "aaaaa": sequential occurrence 4 starts at 3, original code point 2: original occurrence 2.
    expect(basisShift(grown, 'aa', 4, 3, 5)).toMatchObject({ transaction_start_occurrence_index: 2 });
  });
});
