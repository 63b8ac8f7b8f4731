import { canonicalJson } from './canonical-json';
import { chainLink, eventCanonicalText, GENESIS_LINK } from './event-chain';

describe('canonicalJson', () => {
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
    expect(() => canonicalJson({ x: Number.NaN })).toThrow(RangeError);
  });

  it('gives values equal as JSON one text, whatever order their members were written in', () => {
    const a = { x: { p: 1, q: [2, { r: 3, s: 4 }] }, y: 'y' };
    const b = JSON.parse('{"y":"y","x":{"q":[2,{"s":4,"r":3}],"p":1}}');
    expect(canonicalJson(a)).toBe(canonicalJson(b));
  });
});

describe('the event chain', () => {
  it('covers the event as stored, its instant in UTC milliseconds', () => {
    const text = eventCanonicalText({
      streamId: 's',
      streamVersion: 2,
      type: 'T',
      schemaVersion: 1,
      data: { b: 1, a: 2 },
      metadata: {},
      recordedAt: '2024-05-01T14:00:00.5+02:00',
    });
    expect(text).toBe('{"data":{"a":2,"b":1},"metadata":{},"recordedAt":"2024-05-01T12:00:00.500Z","schemaVersion":1,"streamId":"s","streamVersion":2,"type":"T"}');
  });

  it('links SHA-256(previous ‖ digest)', () => {
    // sha256 of 64 zero bytes.
    expect(chainLink(GENESIS_LINK, GENESIS_LINK)).toBe('f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b');
  });
});
