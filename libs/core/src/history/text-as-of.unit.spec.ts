import { sha256Hex } from '../text/sha256';
import { foldHistory, HistoryDivergence, parseAsOf } from './text-as-of';

describe('parseAsOf', () => {
  it('accepts one of version, position or time, and nothing for the current version', () => {
    expect(parseAsOf(undefined)).toEqual({ ok: true, value: null });
    expect(parseAsOf({ version: 0 })).toEqual({ ok: true, value: { version: 0 } });
    expect(parseAsOf({ position: 12 })).toEqual({ ok: true, value: { position: 12 } });
    expect(parseAsOf({ time: '2026-01-31T12:00:00+01:00' })).toEqual({ ok: true, value: { time: '2026-01-31T11:00:00.000Z' } });
  });

  it.each([[7], [{}], [{ version: -1 }], [{ version: 1.5 }], [{ version: 1, position: 2 }], [{ time: 'yesterday' }], [{ time: '2026-13-45T99:00:00Z' }], [{ when: 1 }]])(
    'refuses %j as invalid_as_of',
    (value) => {
      const r = parseAsOf(value);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatchObject({ status: 'invalid_argument', code: 'invalid_as_of', argument: 'as_of' });
    },
  );
});

describe('foldHistory', () => {
  it('applies each step\'s effects in order and checks the last recorded hash', () => {
    const v1 = 'a😀c';
    const v2 = 'X😀cY';
    const steps = [
      { version: 1, after_hash: sha256Hex(v1), effects: [{ start: 1, end: 2, inserted: '😀' }] },
      { version: 2, after_hash: sha256Hex(v2), effects: [{ start: 0, end: 1, inserted: 'X' }, { start: 3, end: 3, inserted: 'Y' }] },
    ];
    expect(foldHistory('abc', steps)).toBe(v2);
    expect(foldHistory('abc', [])).toBe('abc');
  });

  it('derives an older acceptance\'s effects from the text before it', () => {
    const step = { version: 1, after_hash: sha256Hex('ab!'), effects: (pre: string) => [{ start: pre.length, end: pre.length, inserted: '!' }] };
    expect(foldHistory('ab', [step])).toBe('ab!');
  });

  it('throws when the effects do not fit or do not lead to the recorded hash', () => {
    expect(() => foldHistory('ab', [{ version: 1, after_hash: sha256Hex('x'), effects: [{ start: 1, end: 9, inserted: '' }] }])).toThrow(HistoryDivergence);
    expect(() => foldHistory('ab', [{ version: 1, after_hash: sha256Hex('wrong'), effects: [{ start: 0, end: 1, inserted: 'z' }] }])).toThrow(HistoryDivergence);
  });
});
