import fc from 'fast-check';
import { asciiJson, canonicalJson } from './record-codec';

describe('canonicalJson', () => {
  it('sorts keys by code unit order, without spaces, keeping array order', () => {
    expect(canonicalJson({ b: 1, a: [3, { d: null, c: true }], A: 'x' })).toBe('{"A":"x","a":[3,{"c":true,"d":null}],"b":1}');
    expect(canonicalJson({ '\u{1F600}': 1, '\uffff': 2 })).toBe('{"\u{1F600}":1,"\uffff":2}');
  });

  it('writes non-ASCII literally and escapes what JSON.stringify escapes', () => {
    expect(canonicalJson({ t: 'é\n"\u{20000}\ud800' })).toBe('{"t":"é\\n\\"\u{20000}\\ud800"}');
  });

  it('skips undefined members like JSON.stringify and refuses values JSON cannot hold', () => {
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
    expect(() => canonicalJson({ n: NaN })).toThrow(TypeError);
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });

  it('is stable under key permutation and parses back to an equal value', () => {
    const permute = (value: unknown, seed: number): unknown => {
      if (Array.isArray(value)) return value.map((v) => permute(v, seed));
      if (value && typeof value === 'object') {
        const entries = Object.entries(value as Record<string, unknown>);
        const rotated = entries.map((_, i) => entries[(i + seed) % entries.length]).reverse();
        return Object.fromEntries(rotated.map(([k, v]) => [k, permute(v, seed + 1)]));
      }
      return value;
    };
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(7), (value, seed) => {
        const json = canonicalJson(value);
        expect(canonicalJson(permute(value, seed))).toBe(json);
        expect(canonicalJson(JSON.parse(json))).toBe(json);
      }),
    );
  });
});

describe('asciiJson', () => {
  it('escapes every non-ASCII unit so length equals bytes', () => {
    expect(asciiJson({ t: 'é\u{1F600}\u007f' })).toBe('{"t":"\\u00e9\\ud83d\\ude00\u007f"}');
    expect(JSON.parse(asciiJson({ t: 'é\u{1F600}' }))).toEqual({ t: 'é\u{1F600}' });
  });
});
