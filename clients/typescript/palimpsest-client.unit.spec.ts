import { METHODS, READ_ONLY_METHODS, decodeResponse, encodeRequest, request } from './palimpsest-client';

describe('generated TypeScript client', () => {
  it('encodes an ASCII-only request line for a catalog method', () => {
    const line = encodeRequest(
      request(7, 'palimpsest_submit_edits', {
        target_file_id: 'id', intent: 'é\u2028', expected_target_version: 0, edits: [{ match: 'a', replace: 'b' }],
      }),
    );
    expect(line.endsWith('\n')).toBe(true);
    expect(/^[\x00-\x7f]*$/.test(line)).toBe(true);
    expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0', id: 7, method: 'palimpsest_submit_edits', params: { intent: 'é\u2028' } });
  });

  it('decodes results and errors, and refuses what is not JSON-RPC 2.0', () => {
    expect(decodeResponse('{"jsonrpc":"2.0","id":1,"result":{"status":"ok"}}')).toEqual({ ok: true, id: 1, result: { status: 'ok' } });
    expect(decodeResponse('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse"}}')).toMatchObject({ ok: false });
    expect(() => decodeResponse('{"id":1,"result":{}}')).toThrow();
  });

  it('lists every method and marks the read-only ones', () => {
    expect(METHODS).toContain('palimpsest_get_attempt_log');
    expect(READ_ONLY_METHODS).not.toContain('palimpsest_submit_edits');
    expect(() => request(1, 'nope' as never, {} as never)).toThrow();
  });
});
