import { maxHeaderSize, STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { newRequestId } from '../observability/logger';
import { gatewayError, withTraceId, type ApiError } from './api-error';

/** What Node's HTTP parser and its request timers report on `clientError`. */
export interface ClientError extends Error {
  code?: string;
  reason?: string;
  bytesParsed?: number;
  /** The chunk being parsed (a Buffer at run time, whatever Fastify's typings say). */
  rawPacket?: unknown;
}

/**
 * Node counts the request line against the same head limit as the headers, so an over-long URI is a
 * header overflow too. It is the URI when the parser stopped on the first line it saw, one that starts
 * like a request line (`METHOD `; a header line has a colon first). A URI split across reads ends in a
 * chunk that starts mid-URI and is answered 431, which is also true of it.
 */
function overflowedInRequestLine(error: ClientError): boolean {
  if (!Buffer.isBuffer(error.rawPacket)) return false;
  const end = error.bytesParsed && error.bytesParsed > 0 ? error.bytesParsed : error.rawPacket.length;
  const seen = error.rawPacket.subarray(0, end).toString('latin1');
  return /^[A-Z]+ /.test(seen.slice(seen.lastIndexOf('\n') + 1));
}

/** The gateway's refusal for what the HTTP parser (or a request timer) refused before any route ran. */
export function clientErrorRefusal(error: ClientError): ApiError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return gatewayError(408, 'resource_limit', 'request_timeout', 'The request did not arrive in time; send it again, whole.', { retryable: 'same_request' });
    case 'HPE_HEADER_OVERFLOW':
      return overflowedInRequestLine(error)
        ? gatewayError(414, 'resource_limit', 'uri_too_long', `The request line is longer than the ${maxHeaderSize}-byte request head limit.`)
        : gatewayError(431, 'resource_limit', 'headers_too_large', `The request line and headers are larger than ${maxHeaderSize} bytes.`);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return gatewayError(413, 'resource_limit', 'chunk_extensions_too_large', 'The chunk extensions of the request body are too large.');
    case 'HPE_INVALID_VERSION':
    case 'HPE_PAUSED_H2_UPGRADE':
      return gatewayError(400, 'invalid_arguments', 'unsupported_http_version', 'The gateway speaks HTTP/1.1 (and HTTP/1.0) only.');
    default: {
      const detail = error.code ? `${error.code}: ${error.reason ?? error.message}` : error.message;
      return gatewayError(400, 'invalid_arguments', 'malformed_request', `The request is not valid HTTP/1.1 (${detail}).`);
    }
  }
}

/** The whole answer as bytes: there is no request or reply object to send it through. */
export function rawErrorResponse(refusal: ApiError, traceId: string): string {
  const body = JSON.stringify(withTraceId(refusal.body, traceId));
  const headers = {
    ...refusal.headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': traceId,
    Connection: 'close',
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${refusal.httpStatus} ${STATUS_CODES[refusal.httpStatus]}\r\n${head.join('')}\r\n${body}`;
}

/**
 * Fastify's `clientErrorHandler`: the envelope instead of Fastify's `{"error":"Bad Request",…}`, with a
 * trace id made here (no request exists, so there is no request id), then the socket is closed.
 */
export function clientErrorHandler(logger: Logger): (error: ClientError, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) {
      socket.destroy();
      return;
    }
    const refusal = clientErrorRefusal(error);
    const traceId = newRequestId();
    const remote = socket.remoteAddress;
    // As Node itself does: an answer already under way on this socket must not be corrupted.
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    const answered = socket.writable && !inFlight?.headersSent;
    if (answered) socket.write(rawErrorResponse(refusal, traceId));
    socket.destroy();
    logger.info(
      { req: { id: traceId, remote }, res: { status: answered ? refusal.httpStatus : null }, err: { code: error.code } },
      'request refused by the HTTP parser',
    );
  };
}
