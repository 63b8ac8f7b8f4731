import fc from 'fast-check';
import { escapeNonAscii, isAscii, toAsciiJson } from './ascii-json';
import { parseStrictJson } from './strict-json';

const ANY_UNIT = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);

describe('toAsciiJson', () => {
  it('writes pure ASCII that parses back to the identical value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: ANY_UNIT }), (value) => {
        const text = toAsciiJson(value);
        expect(isAscii(text)).toBe(true);
        expect(text).not.toMatch(/[\n\r]/);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(parseStrictJson(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 500 },
    );
  });

  it('escapes line-like separators, C1 controls, astral characters and lone surrogates', () => {
    expect(toAsciiJson('a\u2028b\u2029c\u0085d')).toBe('"a\\u2028b\\u2029c\\u0085d"');
    expect(toAsciiJson('\u{1F600}')).toBe('"\\ud83d\\ude00"');
    expect(toAsciiJson('\ud800x\udc00')).toBe('"\\ud800x\\udc00"');
    expect(toAsciiJson({ 'clé': 'é' })).toBe('{"cl\\u00e9":"\\u00e9"}');
    expect(JSON.parse(toAsciiJson('\ud800'))).toBe('\ud800');
  });

  it('leaves ASCII output of JSON.stringify untouched', () => {
    const value = { a: [1, 2.5, null, true], b: 'plain \t\n "quoted"', c: '\u007f' };
    expect(toAsciiJson(value)).toBe(JSON.stringify(value));
    expect(escapeNonAscii('abc')).toBe('abc');
  });

  it('refuses values with no JSON text', () => {
    expect(() => toAsciiJson(undefined)).toThrow(TypeError);
  });
});
