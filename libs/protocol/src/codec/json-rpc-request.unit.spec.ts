import fc from 'fast-check';
import { decodeFrame, type DecodedFrame } from './json-rpc-request';
import { RPC_ERROR } from './json-rpc.constants';

const bytes = (s: string) => new TextEncoder().encode(s);
const decode = (s: string) => decodeFrame(bytes(s));
const dataCode = (d: DecodedFrame) => (d.kind === 'invalid' ? [d.error.code, d.error.data?.code] : [d.kind]);

const validRequest = fc
  .record({
    id: fc.oneof(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }).map(String), fc.string({ minLength: 1, maxLength: 20 }).map((s) => JSON.stringify(s.replace(/[\u0000-\u001f\u007f]/g, 'x') || 'x'))),
    params: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
  })
  .map(({ id, params }) => `{"jsonrpc":"2.0","id":${id},"method":"palimpsest_get_target","params":${JSON.stringify(params)}}`);

describe('decodeFrame: requests and notifications', () => {
  it('decodes a request, keeping the integer id as its exact token', () => {
    const d = decode('{"jsonrpc":"2.0","id":18446744073709551615,"method":"m","params":{"n":1.5,"big":18446744073709551615}}');
    expect(d).toEqual({
      kind: 'request',
      id: { kind: 'integer', token: '18446744073709551615' },
      method: 'm',
      params: { n: 1.5, big: 18446744073709551616 },
    });
  });

  it('accepts members in any order, string ids and absent params', () => {
    expect(decode('{"method":"m","id":"r-1","jsonrpc":"2.0"}')).toEqual({
      kind: 'request',
      id: { kind: 'string', value: 'r-1' },
      method: 'm',
      params: undefined,
    });
    expect(decode(' {"jsonrpc":"2.0","id":0,"method":"m"} ')).toMatchObject({ kind: 'request' });
  });

  it('leaves the params shape to the session (method availability answers first)', () => {
    expect(decode('{"jsonrpc":"2.0","id":1,"method":"m","params":[1]}')).toMatchObject({ kind: 'request', params: [1] });
    expect(decode('{"jsonrpc":"2.0","id":1,"method":"m","params":null}')).toMatchObject({ kind: 'request', params: null });
  });

  it('recognises notifications (no id) without reading their params', () => {
    expect(decode('{"jsonrpc":"2.0","method":"palimpsest_submit_edits","params":{"x":1}}')).toEqual({
      kind: 'notification',
      method: 'palimpsest_submit_edits',
    });
  });

  it('ignores an empty frame', () => {
    expect(decodeFrame(new Uint8Array(0))).toEqual({ kind: 'empty' });
  });

  it('decodes any well-formed request frame', () => {
    fc.assert(fc.property(validRequest, (text) => expect(decode(text).kind).toBe('request')));
  });
});

describe('decodeFrame: -32700 for frames that are not strict JSON', () => {
  it('refuses a CR byte anywhere in a frame, even where JSON would allow whitespace', () => {
    fc.assert(
      fc.property(validRequest, fc.nat(), (text, at) => {
        const b = bytes(text);
        const p = at % (b.length + 1);
        const withCr = new Uint8Array([...b.slice(0, p), 0x0d, ...b.slice(p)]);
        expect(dataCode(decodeFrame(withCr))).toEqual([RPC_ERROR.parseError, 'carriage_return']);
      }),
    );
    expect(dataCode(decode('{"jsonrpc":"2.0","id":1,"method":"m"}\r'))).toEqual([RPC_ERROR.parseError, 'carriage_return']);
  });

  it.each([
    [[0xff], 'byte 0xFF'],
    [[0xc0, 0xaf], 'overlong encoding'],
    [[0xe0, 0x80, 0xaf], 'overlong three-byte encoding'],
    [[0xed, 0xa0, 0x80], 'UTF-8 encoded surrogate'],
    [[0xf4, 0x90, 0x80, 0x80], 'beyond U+10FFFF'],
    [[0xe2, 0x82], 'truncated sequence'],
    [[0x80], 'stray continuation byte'],
  ])('refuses invalid UTF-8 inside a string: %j (%s)', (seq) => {
    const frame = new Uint8Array([...bytes('{"jsonrpc":"2.0","id":1,"method":"m","params":{"s":"'), ...seq, ...bytes('"}}')]);
    const d = decodeFrame(frame);
    expect(d).toMatchObject({ kind: 'invalid', id: null });
    expect(dataCode(d)).toEqual([RPC_ERROR.parseError, 'invalid_utf8']);
  });

  it('refuses every byte sequence a fatal UTF-8 decoder refuses', () => {
    const fatal = new TextDecoder('utf-8', { fatal: true });
    const isInvalid = (b: Uint8Array) => {
      try {
        fatal.decode(b);
        return false;
      } catch {
        return true;
      }
    };
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 24 }).filter((b) => !b.includes(0x0d) && isInvalid(b)), (b) => {
        expect(dataCode(decodeFrame(b))).toEqual([RPC_ERROR.parseError, 'invalid_utf8']);
      }),
    );
  });

  it.each([
    ['{"jsonrpc":"2.0","id":1,"method":"m","method":"n"}', 'duplicate_key'],
    ['{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":{"b":1,"b":1}}}', 'duplicate_key'],
    ['{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}', 'duplicate_key'],
    ['{"jsonrpc":"2.0","id":1,"method":"m",}', 'invalid_json'],
    ['\ufeff{"jsonrpc":"2.0","id":1,"method":"m"}', 'invalid_json'],
    ['   ', 'invalid_json'],
    ['{"jsonrpc":"2.0","id":1,"method":"m","params":{"n":1e999}}', 'number_out_of_range'],
    [`{"jsonrpc":"2.0","id":1,"method":"m","params":${'['.repeat(300)}${']'.repeat(300)}}`, 'nesting_too_deep'],
  ])('refuses %s (%s) with id null', (text, code) => {
    const d = decode(text);
    expect(d).toMatchObject({ kind: 'invalid', id: null, error: { code: RPC_ERROR.parseError, message: 'Parse error' } });
    expect(dataCode(d)).toEqual([RPC_ERROR.parseError, code]);
  });
});

describe('decodeFrame: -32600 for invalid envelopes', () => {
  it.each([
    ['[]', 'batch_not_supported', null],
    ['[{"jsonrpc":"2.0","id":1,"method":"m"}]', 'batch_not_supported', null],
    ['1', 'not_an_object', null],
    ['"text"', 'not_an_object', null],
    ['null', 'not_an_object', null],
    ['{"jsonrpc":"2.0","id":1,"method":"m","extra":true}', 'unknown_member', '1'],
    ['{"jsonrpc":"2.0","method":"m","result":1}', 'unknown_member', null],
    ['{"jsonrpc":"1.0","id":1,"method":"m"}', 'invalid_jsonrpc', '1'],
    ['{"jsonrpc":2.0,"id":1,"method":"m"}', 'invalid_jsonrpc', '1'],
    ['{"id":1,"method":"m"}', 'invalid_jsonrpc', '1'],
    ['{"jsonrpc":"2.0","id":1}', 'invalid_method', '1'],
    ['{"jsonrpc":"2.0","id":1,"method":""}', 'invalid_method', '1'],
    ['{"jsonrpc":"2.0","id":1,"method":7}', 'invalid_method', '1'],
    ['{"jsonrpc":"2.0","id":null,"method":"m"}', 'invalid_id', null],
    ['{"jsonrpc":"2.0","id":-1,"method":"m"}', 'invalid_id', null],
    ['{"jsonrpc":"2.0","id":1.0,"method":"m"}', 'invalid_id', null],
    ['{"jsonrpc":"2.0","id":1e2,"method":"m"}', 'invalid_id', null],
    ['{"jsonrpc":"2.0","id":18446744073709551616,"method":"m"}', 'invalid_id', null],
    ['{"jsonrpc":"2.0","id":"","method":"m"}', 'invalid_id', null],
    [`{"jsonrpc":"2.0","id":"${'x'.repeat(129)}","method":"m"}`, 'invalid_id', null],
    ['{"jsonrpc":"2.0","id":"a\\u0007","method":"m"}', 'invalid_id', null],
    ['{"jsonrpc":"2.0","id":true,"method":"m"}', 'invalid_id', null],
    ['{"jsonrpc":"2.0","id":[1],"method":"m"}', 'invalid_id', null],
    ['{"jsonrpc":"2.0","id":{},"method":"m"}', 'invalid_id', null],
  ])('refuses %s (%s)', (text, code, idToken) => {
    const d = decode(text);
    expect(dataCode(d)).toEqual([RPC_ERROR.invalidRequest, code]);
    expect(d).toMatchObject({ kind: 'invalid', id: idToken === null ? null : { kind: 'integer', token: idToken } });
  });

  it('reads only the top-level id lexically; nested "id" members stay numbers', () => {
    expect(decode('{"jsonrpc":"2.0","id":5,"method":"m","params":{"id":5}}')).toMatchObject({ params: { id: 5 } });
  });
});
