import { clientErrorRefusal, rawErrorResponse, type ClientError } from './client-error';

const parserError = (code: string, packet?: string, bytesParsed?: number): ClientError =>
  Object.assign(new Error(`Parse Error: ${code}`), { code, reason: 'why', rawPacket: packet === undefined ? undefined : Buffer.from(packet, 'latin1'), bytesParsed });

const summary = (error: ClientError) => {
  const refusal = clientErrorRefusal(error);
  const envelope = refusal.body.error as { code: string; reason: string; retryable: string };
  return [refusal.httpStatus, envelope.code, envelope.reason, envelope.retryable];
};

// What the end-to-end spec cannot send cheaply: a timeout, and head overflows seen in parts.
describe('clientErrorRefusal', () => {
  it('answers a request timer with 408, to resend', () => {
    expect(summary(Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }))).toEqual([408, 'resource_limit', 'request_timeout', 'same_request']);
  });

  it('tells an over-long request line (414) from over-long headers (431)', () => {
    const url = `GET /v1/capabilities?q=${'a'.repeat(100)}`;
    expect(summary(parserError('HPE_HEADER_OVERFLOW', `${url} HTTP/1.1\r\n`, url.length))[0]).toBe(414);
    const second = `GET / HTTP/1.1\r\nHost: x\r\n\r\n${url}`; // the second request on a keep-alive socket
    expect(summary(parserError('HPE_HEADER_OVERFLOW', second, second.length))[0]).toBe(414);
    const header = `GET / HTTP/1.1\r\nHost: x\r\nX-Fill: ${'a'.repeat(100)}`;
    expect(summary(parserError('HPE_HEADER_OVERFLOW', header, header.length))).toEqual([431, 'resource_limit', 'headers_too_large', 'none']);
    expect(summary(parserError('HPE_HEADER_OVERFLOW', 'aaaaaaaa'))[0]).toBe(431); // mid-line: not known to be the URI
    expect(summary(parserError('HPE_HEADER_OVERFLOW'))[0]).toBe(431);
  });

  it('names the parser\'s own code in a malformed_request message', () => {
    const refusal = clientErrorRefusal(parserError('HPE_INVALID_CHUNK_SIZE'));
    expect(refusal.httpStatus).toBe(400);
    expect(refusal.body.error).toMatchObject({ code: 'invalid_arguments', reason: 'malformed_request', message: expect.stringContaining('HPE_INVALID_CHUNK_SIZE') });
    expect(summary(parserError('HPE_CHUNK_EXTENSIONS_OVERFLOW'))[0]).toBe(413);
  });
});

describe('rawErrorResponse', () => {
  it('is a whole HTTP/1.1 answer: status line, JSON type, exact length, close, the trace id twice', () => {
    const raw = rawErrorResponse(clientErrorRefusal(parserError('HPE_INVALID_METHOD')), 'trace-1');
    const [head, body] = raw.split('\r\n\r\n');
    const lines = head!.split('\r\n');
    expect(lines[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(lines).toEqual(expect.arrayContaining(['Content-Type: application/json; charset=utf-8', 'Connection: close', 'X-Request-Id: trace-1', `Content-Length: ${Buffer.byteLength(body!)}`]));
    expect(JSON.parse(body!).error).toMatchObject({ code: 'invalid_arguments', trace_id: 'trace-1' });
  });
});
