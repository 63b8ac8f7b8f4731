import { isAscii } from './ascii-json';
import { MAX_RESPONSE_BYTES, RPC_ERROR } from './json-rpc.constants';
import {
  errorLine,
  fitResponse,
  internalError,
  outcomeLine,
  oversizedFrameError,
  paramsShapeError,
  resultLine,
  unavailableMethodError,
} from './json-rpc-response';
import type { RequestId } from './request-id';

const BIG: RequestId = { kind: 'integer', token: '18446744073709551615' };
const STR: RequestId = { kind: 'string', value: 'req-\u00e9' };

describe('response lines', () => {
  it('echo an integer id as its exact token and a string id as ASCII JSON', () => {
    expect(resultLine(BIG, { status: 'ok' })).toBe('{"jsonrpc":"2.0","id":18446744073709551615,"result":{"status":"ok"}}');
    expect(resultLine(STR, {})).toBe('{"jsonrpc":"2.0","id":"req-\\u00e9","result":{}}');
    expect(errorLine(null, { code: RPC_ERROR.parseError, message: 'Parse error' })).toBe(
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
    );
  });

  it('are pure ASCII and parse back to the same text values', () => {
    const content = 'a\u2028b\u2029c\u0085\u{1F600}\ud800';
    const line = resultLine(STR, { status: 'ok', content });
    expect(isAscii(line)).toBe(true);
    expect(JSON.parse(line).result.content).toBe(content);
  });
});

describe('outcomeLine: statuses to results and errors', () => {
  const parse = (line: string) => JSON.parse(line);

  it.each(['ok', 'accepted', 'rejected', 'saved', 'success', 'failed'])('%s is a result', (status) => {
    const result = { status, failure_reason: 'match_not_found' };
    expect(parse(outcomeLine(BIG, result))).toEqual({ jsonrpc: '2.0', id: 18446744073709551615, result });
  });

  it('invalid_argument is -32602 carrying the whole result as data', () => {
    const refused = { status: 'invalid_argument', code: 'unknown_argument', tool: 't', failure_detail: 'Unknown argument(s): x.' };
    expect(parse(outcomeLine(STR, refused))).toEqual({
      jsonrpc: '2.0',
      id: 'req-\u00e9',
      error: { code: RPC_ERROR.invalidParams, message: 'Unknown argument(s): x.', data: refused },
    });
  });

  it('not_found is the semantic failure -32000', () => {
    const missing = { status: 'not_found', failure_detail: 'No target 0000.' };
    expect(parse(outcomeLine(STR, missing)).error).toEqual({ code: RPC_ERROR.semanticFailure, message: 'No target 0000.', data: missing });
    expect(parse(outcomeLine(STR, { status: 'not_found' })).error.message).toBe('not_found');
  });

  it('a result without a string status, or with an inherited-looking one, stays a result', () => {
    expect(parse(outcomeLine(STR, { value: 1 }))).toHaveProperty('result', { value: 1 });
    expect(parse(outcomeLine(STR, { status: 'constructor' }))).toHaveProperty('result', { status: 'constructor' });
    expect(parse(outcomeLine(STR, { status: 'toString' }))).toHaveProperty('result');
  });
});

describe('error builders', () => {
  it('-32601 names the method and why it is unavailable', () => {
    expect(unavailableMethodError('x', 'unknown')).toMatchObject({ code: -32601, data: { code: 'unknown_operation', method: 'x' } });
    expect(unavailableMethodError('w', 'read_only_profile')).toMatchObject({ code: -32601, data: { code: 'operation_not_permitted', method: 'w' } });
  });

  it('-32602 for params that are present and not an object', () => {
    for (const params of [null, [], [1], 'x', 1, true]) {
      expect(paramsShapeError('m', params)).toMatchObject({ code: -32602, data: { status: 'invalid_argument', code: 'invalid_params', tool: 'm' } });
    }
    expect(paramsShapeError('m', undefined)).toBeNull();
    expect(paramsShapeError('m', {})).toBeNull();
  });

  it('-32603 and -32700 carry stable diagnostic codes', () => {
    expect(internalError()).toMatchObject({ code: -32603, data: { status: 'internal', retryable: 'same_request' } });
    expect(oversizedFrameError(65536)).toMatchObject({ code: -32700, data: { code: 'frame_too_large', limit_bytes: 65536 } });
  });
});

describe('fitResponse', () => {
  const lineOf = (bytesWithLf: number) => {
    const head = '{"jsonrpc":"2.0","id":1,"result":{"s":"';
    const tail = '"}}';
    return head + 'x'.repeat(bytesWithLf - 1 - head.length - tail.length) + tail;
  };

  it('keeps a line of exactly the limit including its LF', () => {
    const line = lineOf(MAX_RESPONSE_BYTES);
    expect(line.length + 1).toBe(MAX_RESPONSE_BYTES);
    expect(fitResponse(BIG, line)).toEqual({ line, tooLarge: false });
  });

  it('replaces a line one byte over by -32001 for the same id, with nothing of the payload', () => {
    const fitted = fitResponse(BIG, lineOf(MAX_RESPONSE_BYTES + 1));
    expect(fitted.tooLarge).toBe(true);
    expect(fitted.line).not.toContain('xxx');
    expect(fitted.line.startsWith('{"jsonrpc":"2.0","id":18446744073709551615,"error":{"code":-32001')).toBe(true);
    expect(JSON.parse(fitted.line).error.data).toMatchObject({ code: 'response_too_large', limit_bytes: MAX_RESPONSE_BYTES, response_bytes: MAX_RESPONSE_BYTES + 1 });
  });

  it('honours a smaller limit', () => {
    expect(fitResponse(null, 'x'.repeat(10), 10).tooLarge).toBe(true);
    expect(fitResponse(null, 'x'.repeat(9), 10).tooLarge).toBe(false);
  });
});
