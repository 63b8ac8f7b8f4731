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
    expect(() => canonicalJson({ a: [1, { b: Infinity }] })).toThrow('canonicalJson: $.a[1].b is not representable in JSON');
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

describe('canonicalJson strings', () => {
  it('writes every string, member names included, exactly as JSON.stringify writes it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }), (a, b) => {
        expect(canonicalJson(a)).toBe(JSON.stringify(a));
        expect(canonicalJson(b)).toBe(JSON.stringify(b));
        expect(canonicalJson({ [b]: a })).toBe(`{${JSON.stringify(b)}:${JSON.stringify(a)}}`);
      }),
    );
  });
});

describe('canonicalJson as RFC 8785 writes it', () => {
  it('sorts members by UTF-16 code units and writes no whitespace (RFC 8785)', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], é: {}, A: { z: 1, y: 2 }, '\u{1F600}': 0, '\uFFFF': 1 })).toBe(
      '{"A":{"y":2,"z":1},"a":[true,null,"x"],"b":1,"é":{},"\u{1F600}":0,"\uFFFF":1}',
    );
  });

  it('writes numbers and strings as JSON.stringify does, and leaves out what it leaves out', () => {
    expect(canonicalJson({ n: [1e21, 1.5e-7, -0, 0.1 + 0.2], s: 'a"\n\u2028', u: undefined, d: new Date(0) })).toBe(
      '{"d":"1970-01-01T00:00:00.000Z","n":[1e+21,1.5e-7,0,0.30000000000000004],"s":"a\\"\\n\u2028"}',
    );
    expect(canonicalJson([undefined])).toBe('[null]');
    expect(() => canonicalJson({ x: Number.NaN })).toThrow(TypeError);
  });

  it('gives values equal as JSON one text, whatever order their members were written in', () => {
    const a = { x: { p: 1, q: [2, { r: 3, s: 4 }] }, y: 'y' };
    const b = JSON.parse('{"y":"y","x":{"q":[2,{"s":4,"r":3}],"p":1}}');
    expect(canonicalJson(a)).toBe(canonicalJson(b));
  });
});

describe('asciiJson', () => {
  it('escapes every non-ASCII unit so length equals bytes', () => {
    expect(asciiJson({ t: 'é\u{1F600}\u007f' })).toBe('{"t":"\\u00e9\\ud83d\\ude00\u007f"}');
    expect(JSON.parse(asciiJson({ t: 'é\u{1F600}' }))).toEqual({ t: 'é\u{1F600}' });
  });
});
