import { integerArg, READ_BOUNDS } from './read-bounds';

const spec = { argument: 'n', code: 'bad_n', min: 1, fallback: 7 };

describe('integerArg', () => {
  it('uses the fallback for an omitted or null value', () => {
    expect(integerArg(undefined, spec)).toEqual({ ok: true, value: 7 });
    expect(integerArg(null, spec)).toEqual({ ok: true, value: 7 });
  });

  it('refuses null when null is not a default', () => {
    const result = integerArg(null, { ...spec, nullIsDefault: false });
    expect(result).toMatchObject({ ok: false, error: { status: 'invalid_argument', code: 'bad_n', argument: 'n' } });
  });

  it('refuses values below the minimum and non-integers', () => {
    for (const bad of [0, -3, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      const result = integerArg(bad, spec);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.failure_detail).toContain('n must be an integer >= 1');
    }
  });

  it('accepts the minimum and leaves caps to the caller', () => {
    expect(integerArg(1, spec)).toEqual({ ok: true, value: 1 });
    expect(integerArg(10 ** 12, spec)).toEqual({ ok: true, value: 10 ** 12 });
  });

  it('publishes the seed bounds', () => {
    expect(READ_BOUNDS).toEqual({
      defaultChars: 4000,
      maxChars: 8000,
      defaultContextChars: 40,
      maxContextChars: 400,
      maxResults: 200,
    });
  });
});
