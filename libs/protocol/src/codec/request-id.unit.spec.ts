import fc from 'fast-check';
import { checkRequestId, encodeRequestId, MAX_ID_UTF8_BYTES, NumberToken } from './request-id';

const U64_MAX = '18446744073709551615';

describe('checkRequestId: integers', () => {
  it('keeps every unsigned 64-bit integer token exactly and echoes it verbatim', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), (n) => {
        const checked = checkRequestId(new NumberToken(n.toString()));
        expect(checked).toEqual({ ok: true, id: { kind: 'integer', token: n.toString() } });
        if (checked.ok) expect(encodeRequestId(checked.id)).toBe(n.toString());
      }),
    );
    expect(checkRequestId(new NumberToken(U64_MAX))).toEqual({ ok: true, id: { kind: 'integer', token: U64_MAX } });
    expect(checkRequestId(new NumberToken('0'))).toMatchObject({ ok: true });
  });

  it.each([
    ['18446744073709551616', '2^64'],
    ['99999999999999999999999', 'far beyond 2^64'],
    ['-1', 'negative'],
    ['-0', 'negative zero'],
    ['1.0', 'fraction'],
    ['1e3', 'exponent'],
    ['10E0', 'exponent'],
  ])('refuses %s (%s)', (token) => {
    expect(checkRequestId(new NumberToken(token))).toMatchObject({ ok: false });
  });

  it('refuses a number that did not come through the lexical path', () => {
    expect(checkRequestId(1)).toMatchObject({ ok: false });
  });
});

describe('checkRequestId: strings', () => {
  it('accepts non-empty strings up to 128 UTF-8 bytes without control characters', () => {
    expect(checkRequestId('a')).toEqual({ ok: true, id: { kind: 'string', value: 'a' } });
    expect(checkRequestId('x'.repeat(MAX_ID_UTF8_BYTES))).toMatchObject({ ok: true });
    expect(checkRequestId(`${'\u00e9'.repeat(64)}`)).toMatchObject({ ok: true }); // 128 bytes
    expect(checkRequestId(`${'\u{1F600}'.repeat(32)}`)).toMatchObject({ ok: true }); // 128 bytes
    expect(checkRequestId('id with spaces / \u2028 and "quotes"')).toMatchObject({ ok: true });
  });

  it.each([
    ['', 'empty'],
    ['x'.repeat(129), '129 ASCII bytes'],
    ['\u00e9'.repeat(64) + 'x', '129 bytes of two-byte characters'],
    ['\u4e00'.repeat(43), '129 bytes of three-byte characters'],
    ['a\u0000', 'NUL'],
    ['a\tb', 'tab'],
    ['a\nb', 'LF'],
    ['a\u001f', 'unit separator'],
    ['a\u007f', 'DEL'],
    ['a\u0085', 'C1 NEL'],
    ['a\u009f', 'C1 APC'],
    ['\ud800', 'lone high surrogate'],
    ['x\udc00', 'lone low surrogate'],
  ])('refuses %j (%s)', (value) => {
    expect(checkRequestId(value)).toMatchObject({ ok: false });
  });

  it.each([[null], [true], [{}], [[]], [undefined]])('refuses %j', (value) => {
    expect(checkRequestId(value)).toMatchObject({ ok: false });
  });

  it('encodes string ids as ASCII JSON strings and a missing id as null', () => {
    expect(encodeRequestId({ kind: 'string', value: 'r\u00e9q "1"' })).toBe('"r\\u00e9q \\"1\\""');
    expect(encodeRequestId(null)).toBe('null');
  });
});
