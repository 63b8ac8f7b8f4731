import fc from 'fast-check';
import { canonicalJson } from '../transaction/record-codec';
import { inCanonicalMemberOrder, payloadJson } from './canonical-payload';

describe('a payload encoded for its digest', () => {
  it('is exactly canonicalJson, whether its members come in canonical order or not', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(payloadJson(value)).toBe(canonicalJson(value));
        expect(payloadJson(inCanonicalMemberOrder(value))).toBe(canonicalJson(value));
      }),
    );
  });

  it('sorts what JSON.stringify would not: names out of order, integer-like names, a toJSON, a Date', () => {
    expect(payloadJson({ b: 1, a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":1}');
    expect(payloadJson({ '10': 1, '9': 2, a: 3 })).toBe('{"10":1,"9":2,"a":3}');
    expect(payloadJson({ a: { toJSON: () => ({ z: 1, y: 2 }) } })).toBe('{"a":{"y":2,"z":1}}');
    expect(payloadJson({ at: new Date(0) })).toBe('{"at":"1970-01-01T00:00:00.000Z"}');
    expect(payloadJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
    expect(() => payloadJson({ n: Number.NaN })).toThrow(TypeError);
  });

  it('keeps a payload\'s meaning when it orders its members', () => {
    const value = { zeta: [1, { b: 'x', a: null }], alpha: '\u2028"', '2': true };
    expect(inCanonicalMemberOrder(value)).toEqual(value);
    expect(Object.keys(inCanonicalMemberOrder(value))).toEqual(['2', 'alpha', 'zeta']);
  });
});
