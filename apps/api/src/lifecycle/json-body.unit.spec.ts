import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { ApiError } from '../errors/api-error';
import { readJsonBody } from './json-body';

/** A request as the server hands it over: headers, then the body as it arrives, in chunks. */
function request(headers: Record<string, string>, ...chunks: (string | Buffer)[]): IncomingMessage {
  const stream = new PassThrough() as PassThrough & { headers: Record<string, string>; complete: boolean };
  stream.headers = headers;
  stream.complete = false;
  stream.once('end', () => (stream.complete = true));
  setImmediate(() => {
    for (const chunk of chunks) stream.write(chunk);
    stream.end();
  });
  return stream as unknown as IncomingMessage;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => {
      expect(e).toBeInstanceOf(ApiError);
      const { httpStatus, body } = e as ApiError;
      return { httpStatus, code: body.code };
    },
  );

describe('reading a JSON body', () => {
  it('parses an object or an array sent in any number of chunks; a blank body is {}', async () => {
    await expect(readJsonBody(request(JSON_TYPE, '{"a":', '[1,', '2]}'), 100)).resolves.toEqual({ a: [1, 2] });
    await expect(readJsonBody(request({ 'content-type': 'application/merge-patch+json; charset=UTF-8' }, '\ufeff [1]'), 100)).resolves.toEqual([1]);
    await expect(readJsonBody(request(JSON_TYPE, ' \n'), 100)).resolves.toEqual({});
  });

  it('refuses malformed and non-container JSON with 400 invalid_json', async () => {
    await expect(refusal(readJsonBody(request(JSON_TYPE, '{"a":'), 100))).resolves.toEqual({ httpStatus: 400, code: 'invalid_json' });
    await expect(refusal(readJsonBody(request(JSON_TYPE, '"text"'), 100))).resolves.toEqual({ httpStatus: 400, code: 'invalid_json' });
  });

  it('refuses what is not JSON, another charset or an unknown encoding with 415', async () => {
    await expect(refusal(readJsonBody(request({ 'content-type': 'text/plain' }, '{}'), 100))).resolves.toEqual({ httpStatus: 415, code: 'unsupported_media_type' });
    await expect(refusal(readJsonBody(request({}, '{}'), 100))).resolves.toEqual({ httpStatus: 415, code: 'unsupported_media_type' });
    const latin1 = request({ 'content-type': 'application/json; charset=latin1' }, '{}');
    await expect(refusal(readJsonBody(latin1, 100))).resolves.toEqual({ httpStatus: 415, code: 'unsupported_encoding' });
    const compress = request({ ...JSON_TYPE, 'content-encoding': 'compress' }, '{}');
    await expect(refusal(readJsonBody(compress, 100))).resolves.toEqual({ httpStatus: 415, code: 'unsupported_encoding' });
  });

  it('refuses a body over the limit with 413 once it has been read, whether announced or not', async () => {
    const announced = request({ ...JSON_TYPE, 'content-length': '101' }, `{"a":"${'x'.repeat(94)}"}`);
    await expect(refusal(readJsonBody(announced, 100))).resolves.toEqual({ httpStatus: 413, code: 'request_too_large' });
    expect(announced.complete).toBe(true);
    const chunked = request(JSON_TYPE, '{"a":"', 'x'.repeat(200), '"}');
    await expect(refusal(readJsonBody(chunked, 100))).resolves.toEqual({ httpStatus: 413, code: 'request_too_large' });
    expect(chunked.complete).toBe(true);
  });

  it('decodes gzip, and applies the limit to the decoded size', async () => {
    const small = request({ ...JSON_TYPE, 'content-encoding': 'gzip' }, gzipSync('{"a":1}'));
    await expect(readJsonBody(small, 100)).resolves.toEqual({ a: 1 });
    const bomb = request({ ...JSON_TYPE, 'content-encoding': 'gzip' }, gzipSync(`[${'0,'.repeat(10_000)}0]`));
    await expect(refusal(readJsonBody(bomb, 1000))).resolves.toEqual({ httpStatus: 413, code: 'request_too_large' });
    const broken = request({ ...JSON_TYPE, 'content-encoding': 'gzip' }, 'not gzip');
    await expect(refusal(readJsonBody(broken, 100))).resolves.toEqual({ httpStatus: 400, code: 'invalid_json' });
  });
});
