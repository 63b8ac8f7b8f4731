import { rawRequest, type RawAnswer } from '../support/raw-http';
import { useGateway } from '../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The body as the documented envelope, its trace_id being the answer's X-Request-Id. */
function envelopeOf(answer: RawAnswer): Record<string, any> {
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body);
  expect(body.error).toEqual({
    code: expect.any(String),
    reason: expect.any(String),
    message: expect.any(String),
    retryable: expect.stringMatching(/^(none|same_request|after_refresh)$/),
    next_actions: expect.any(Array),
    trace_id: expect.any(String),
  });
  expect(body.error.trace_id).toBe(answer.headers['x-request-id']);
  return body.error;
}

/**
 * Requests Node's HTTP parser refuses before any route runs, sent byte for byte over a raw socket: each
 * is answered with the envelope (a trace id made for it) and the connection closed. Then two refusals
 * made after parsing: an unknown approval, and a request with two Idempotency-Key headers.
 */
describe(`palimpsest api: malformed requests over raw HTTP on ${backend}`, () => {
  const gw = useGateway('read,write,operator');


  const filler = 'a'.repeat(20_000); // past Node's 16 KiB request head limit
  const parserRefusals: [string, string, string, string, string][] = [
    // name, request bytes, status line, code, reason
    ['a malformed request line', 'GARBAGE\r\n\r\n', 'HTTP/1.1 400 Bad Request', 'invalid_arguments', 'malformed_request'],
    ['HTTP/9.9', 'GET /v1/capabilities HTTP/9.9\r\nHost: x\r\n\r\n', 'HTTP/1.1 400 Bad Request', 'invalid_arguments', 'unsupported_http_version'],
    ['Content-Length: -1', 'POST /v1/targets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: -1\r\n\r\n{}', 'HTTP/1.1 400 Bad Request', 'invalid_arguments', 'malformed_request'],
    [
      'Content-Length with Transfer-Encoding',
      'POST /v1/targets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
      'HTTP/1.1 400 Bad Request',
      'invalid_arguments',
      'malformed_request',
    ],
    [
      'bad chunking',
      'POST /v1/targets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      'HTTP/1.1 400 Bad Request',
      'invalid_arguments',
      'malformed_request',
    ],
    ['a NUL in the URL', 'GET /v1/capa\0bilities HTTP/1.1\r\nHost: x\r\n\r\n', 'HTTP/1.1 400 Bad Request', 'invalid_arguments', 'malformed_request'],
    ['a NUL in a header', 'GET /v1/capabilities HTTP/1.1\r\nHost: x\r\nX-Note: a\0b\r\n\r\n', 'HTTP/1.1 400 Bad Request', 'invalid_arguments', 'malformed_request'],
    ['oversized headers', `GET /v1/capabilities HTTP/1.1\r\nHost: x\r\nX-Fill: ${filler}\r\n\r\n`, 'HTTP/1.1 431 Request Header Fields Too Large', 'resource_limit', 'headers_too_large'],
    ['an overlong URI', `GET /v1/capabilities?fill=${filler} HTTP/1.1\r\nHost: x\r\n\r\n`, 'HTTP/1.1 414 URI Too Long', 'resource_limit', 'uri_too_long'],
  ];

  it.each(parserRefusals)('answers %s with the envelope and closes the connection', async (_name, bytes, statusLine, code, reason) => {
    const answer = await rawRequest(gw.api.url, bytes);
    expect(answer.statusLine).toBe(statusLine);
    expect(answer.headers.connection).toBe('close');
    expect(answer.closed).toBe(true);
    const error = envelopeOf(answer);
    expect(error).toMatchObject({ code, reason, next_actions: [] });
    expect(error.trace_id).toMatch(UUID);
  });

  it('gives every parser refusal a trace id of its own', async () => {
    const ids = await Promise.all([1, 2, 3].map(async () => envelopeOf(await rawRequest(gw.api.url, 'GARBAGE\r\n\r\n')).trace_id));
    expect(new Set(ids).size).toBe(3);
  });

  it('answers an over-long path segment (the router\'s refusal) with the envelope', async () => {
    const answer = await rawRequest(gw.api.url, `GET /v1/targets/${'a'.repeat(2_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(answer.statusLine).toBe('HTTP/1.1 414 URI Too Long');
    expect(envelopeOf(answer)).toMatchObject({ code: 'resource_limit', reason: 'uri_too_long' });
    expect(answer.body.length).toBeLessThan(1_000); // the path is not echoed back
  });

  it('answers an unknown approval with 404 and the trace id', async () => {
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000']) {
      const r = await gw.http.post(`/v1/approvals/${id}/approve`, {}, { headers: { 'x-request-id': `approve-${id.length}` } });
      expect(r.status).toBe(404);
      expect(r.body.error).toMatchObject({ code: 'not_found', reason: 'approval_unknown', trace_id: `approve-${id.length}` });
    }
    const declined = await gw.http.post('/v1/approvals/nope/decline', {});
    expect(declined.status).toBe(404);
    expect(declined.body.error.trace_id).toBe(declined.headers.get('x-request-id'));
  });

  it('refuses two Idempotency-Key headers with 400 instead of joining them into one key', async () => {
    const created = await gw.http.post('/v1/targets', { filename: 'k.md', content: 'alpha beta\n' });
    const id = created.body.target_file_id as string;
    const body = JSON.stringify({ intent: 'Rename', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'gamma' }] });
    const edit = (headers: string[]) =>
      rawRequest(
        gw.api.url,
        [
          `POST /v1/targets/${id}/edits HTTP/1.1`,
          'Host: x',
          `Authorization: Bearer ${gw.token}`,
          'Content-Type: application/json',
          `Content-Length: ${Buffer.byteLength(body)}`,
          'Connection: close',
          ...headers,
          '',
          body,
        ].join('\r\n'),
      );

    const twoKeys = await edit(['Idempotency-Key: a', 'Idempotency-Key: b']);
    expect(twoKeys.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(envelopeOf(twoKeys)).toMatchObject({ code: 'invalid_arguments', reason: 'duplicate_idempotency_key' });
    expect(JSON.parse(twoKeys.body)).toMatchObject({ code: 'duplicate_idempotency_key', argument: 'Idempotency-Key' });
    expect((await edit(['Idempotency-Key: a', 'Idempotency-Key: a'])).status).toBe(400); // the same key twice is still two headers

    const twoGuards = await edit(['If-Match: "0"', 'If-Match: "0"']); // as If-Match already was
    expect(twoGuards.status).toBe(400);
    expect(envelopeOf(twoGuards)).toMatchObject({ code: 'invalid_arguments', reason: 'invalid_if_match' });

    expect((await gw.http.get(`/v1/targets/${id}`)).body).toMatchObject({ version: 0 }); // nothing was recorded
    const once = await edit(['Idempotency-Key: a']);
    expect(once.status).toBe(200);
    expect(JSON.parse(once.body)).toMatchObject({ status: 'accepted', client_request_id: 'a', version: 1 });
  });
});
