import { correctedNearMiss, osaDistance } from './near-miss-correction';

const cps = (s: string) => Array.from(s);

describe('near-miss correction', () => {
  it('counts a transposition as one edit', () => {
    expect(osaDistance(cps('delat'), cps('delta'))).toBe(1);
    expect(osaDistance(cps('delat'), cps('delt'))).toBe(1);
    expect(osaDistance(cps('abc'), cps('abc'))).toBe(0);
    expect(osaDistance(cps('🦊x'), cps('x🦊'))).toBe(1);
  });

  it('prefers the window of the query length among equally close ones, so a swapped pair leaves nothing behind', () => {
    const buffer = 'gamma 🦊 delta\n';
    // The Levenshtein scan reports "gamma 🦊 delt" (one deletion) at [0, 13).
    expect(correctedNearMiss(buffer, 'gamma 🦊 delat', 0, 13)).toBe('gamma 🦊 delta');
  });

  it('finds the intended text for a missing and an extra letter, with astral characters before it', () => {
    expect(correctedNearMiss('𠮷𠮷 checkpoint saved\n', 'checkpont saved', 3, 18)).toBe('checkpoint saved');
    expect(correctedNearMiss('𠮷 colour\n', 'coloour', 2, 8)).toBe('colour');
  });

  it('offers nothing when two different windows are equally good, or nothing is close', () => {
    expect(correctedNearMiss('cot cat\n', 'ct', 0, 2)).toBeNull(); // "co" and "ot" are both one edit away
    expect(correctedNearMiss('abcdefgh\n', 'zzzzzzzz', 0, 8)).toBeNull();
  });
});
