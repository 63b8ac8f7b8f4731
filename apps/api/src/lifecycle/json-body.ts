import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { gatewayError, type ApiError } from '../errors/api-error';

const DECODERS: Record<string, () => Readable & NodeJS.WritableStream> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/**
 * Fastify parses a body before the route's handler, so before Nest's guards. The gateway replaces its
 * parsers with one that leaves the payload unread, for every content type: the body is read by
 * JsonBodyPipe, after authentication, which also refuses what is not JSON (415).
 */
export function deferBodyParsing(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
}

export const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

function mediaType(contentType: string | undefined): { type: string; charset: string | undefined } {
  const [type = '', ...params] = (contentType ?? '').split(';');
  const charset = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('charset='));
  return { type: type.trim().toLowerCase(), charset: charset?.slice('charset='.length).replace(/^"|"$/g, '') };
}

const isJsonType = (type: string): boolean => type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));

export const unsupportedMediaType = () =>
  gatewayError(415, 'invalid_arguments', 'unsupported_media_type', 'Send the arguments as JSON: Content-Type: application/json.', {
    fields: { code: 'unsupported_media_type' },
  });

const unsupportedEncoding = (message: string) => gatewayError(415, 'invalid_arguments', 'unsupported_encoding', message, { fields: { code: 'unsupported_encoding' } });

const invalidJson = (message: string) =>
  gatewayError(400, 'invalid_arguments', 'invalid_json', `The request body is not valid JSON: ${message}`, { fields: { code: 'invalid_json' } });

const tooLarge = (limit: number) =>
  gatewayError(413, 'resource_limit', 'request_too_large', `The request body is larger than ${limit} bytes.`, {
    fields: { code: 'request_too_large', limit_bytes: limit },
  });

/**
 * Reads and parses a JSON request body of at most `limitBytes` (after content decoding): UTF-8,
 * identity, gzip, deflate or br; strict (an object or an array); an empty body reads as {}.
 * A refusal is an ApiError, answered only once the whole request has been read, because closing a
 * socket with unread bytes makes TCP reset it and the client would never see the answer.
 */
export function readJsonBody(req: IncomingMessage, limitBytes: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const refuse = (error: ApiError) => {
      if (settled) return;
      settled = true;
      if (req.complete || req.destroyed) return reject(error);
      req.unpipe();
      req.off('data', collect);
      req.once('end', () => reject(error)).once('close', () => reject(error)).resume();
    };

    const chunks: Buffer[] = [];
    let size = 0;
    function collect(chunk: Buffer) {
      size += chunk.length;
      if (size <= limitBytes) chunks.push(chunk);
      else {
        if (source !== req) source.destroy();
        refuse(tooLarge(limitBytes));
      }
    }

    const { type, charset } = mediaType(req.headers['content-type']);
    if (!isJsonType(type)) return refuse(unsupportedMediaType());
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      return refuse(unsupportedEncoding(`Unsupported charset "${charset.toUpperCase()}"; send UTF-8.`));
    }
    const coding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    const decoder = coding === 'identity' ? undefined : DECODERS[coding];
    if (coding !== 'identity' && !decoder) return refuse(unsupportedEncoding(`Unsupported content encoding "${coding}".`));
    if (!decoder && Number(req.headers['content-length']) > limitBytes) return refuse(tooLarge(limitBytes));

    const source: Readable = decoder ? req.pipe(decoder()) : req;
    source.on('data', collect);
    source.once('error', (e) => refuse(invalidJson(`the body could not be decoded (${e.message})`)));
    source.once('end', () => {
      if (settled) return;
      settled = true;
      try {
        resolve(parseStrict(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8')));
      } catch (e) {
        reject(invalidJson((e as Error).message));
      }
    });
    req.once('close', () => {
      if (!req.complete) refuse(invalidJson('the client closed the connection before the body was complete'));
    });
  });
}

const FIRST_NON_SPACE = /^[\x20\x09\x0a\x0d]*([^\x20\x09\x0a\x0d])/;

/** As body-parser's strict mode: a BOM is dropped, blank is {}, and anything but an object or array is refused. */
function parseStrict(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const first = FIRST_NON_SPACE.exec(body)?.[1];
  if (first === undefined) return {};
  if (first !== '{' && first !== '[') throw new SyntaxError(`Unexpected token "${first}": the body must be a JSON object or array`);
  return JSON.parse(body);
}
