import { PROTOCOL_METHODS, PROTOCOL_VERSION, ProtocolMismatch, decodeAnswer, encodeProtocolRequest, type ProtocolResult } from './palimpsest-protocol';

/**
 * The generated protocol module's types, proven by the compiler (`npm run typecheck` covers this file:
 * it fails when an @ts-expect-error line stops being an error), and its decoding by answer kind.
 */

const line = (body: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', ...body });
const ok = { status: 'ok', schema: 'palimpsest.protocol-result.v1', protocol: PROTOCOL_VERSION, payload: {} };

/** Each line fails the type check; the first also throws at run time (the method is checked there too). */
function mistypedRequests(): string[] {
  return [
    // @ts-expect-error misspelled protocol method
    encodeProtocolRequest(2, 'protocol/capabilites', {}),
    // @ts-expect-error a language protocol/client does not generate
    encodeProtocolRequest(3, 'protocol/client', { language: 'cobol' }),
    // @ts-expect-error protocol/client needs its language
    encodeProtocolRequest(4, 'protocol/client', {}),
    // @ts-expect-error protocol/capabilities takes no params
    encodeProtocolRequest(5, 'protocol/capabilities', { detail: true }),
  ];
}

describe('generated TypeScript protocol helpers', () => {
  it('encode protocol methods, and refuse a name that is not one at run time too', () => {
    expect(PROTOCOL_METHODS).toContain('query/catalog');
    const request = encodeProtocolRequest(1, 'protocol/client', { language: 'rust' });
    expect(JSON.parse(request)).toEqual({ jsonrpc: '2.0', id: 1, method: 'protocol/client', params: { language: 'rust' } });
    expect(mistypedRequests).toThrow(/unknown protocol method protocol\/capabilites/);
    // @ts-expect-error an operation is not a protocol method
    expect(() => encodeProtocolRequest(5, 'palimpsest_get_target', {})).toThrow(TypeError);
  });

  it('decode success, refusal and error, and refuse another protocol version', () => {
    const caps = decodeAnswer(line({ id: 1, result: ok }), 'protocol/capabilities');
    expect(caps.kind).toBe('success');
    const typed: ProtocolResult<'protocol/capabilities'>['payload']['methods'] = [];
    expect(typed).toEqual([]);
    expect(decodeAnswer(line({ id: 2, result: { status: 'rejected', failure_reason: 'match_ambiguous' } }), 'palimpsest_submit_edits')).toMatchObject({ kind: 'refusal', status: 'rejected', code: 'match_ambiguous' });
    expect(decodeAnswer(line({ id: 4, result: { status: 'ok', snapshot: {} } }), 'workspace/open')).toMatchObject({ kind: 'success', status: 'ok' });
    expect(decodeAnswer(line({ id: 5, result: { status: 'not_found', code: 'snapshot_unknown' } }), 'workspace/open')).toMatchObject({ kind: 'refusal', code: 'snapshot_unknown' });
    expect(decodeAnswer(line({ id: 3, error: { code: -32000, message: 'm', data: { status: 'not_found', code: 'target_not_found' } } }), 'palimpsest_get_target')).toMatchObject({ kind: 'refusal', code: 'target_not_found' });
    expect(decodeAnswer(line({ id: null, error: { code: -32700, message: 'Parse error', data: { code: 'invalid_json' } } }))).toMatchObject({ kind: 'error', error: { code: -32700 } });
    expect(() => decodeAnswer(line({ id: 4, result: { ...ok, protocol: 'palimpsest.json-lines.v0' } }), 'protocol/schemas')).toThrow(ProtocolMismatch);
    expect(() => decodeAnswer(line({ id: 5, result: { status: 'accepted' } }), 'palimpsest_get_target')).toThrow(/never answers/);
  });
});
