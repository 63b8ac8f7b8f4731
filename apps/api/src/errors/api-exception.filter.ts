import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { storeFailureOf } from '@palimpsest/store/errors';
import { ApiRuntime } from '../api-runtime';
import { unsupportedMediaType } from '../lifecycle/json-body';
import { ApiError, gatewayError, withTraceId } from './api-error';

/** What Nest itself throws (unknown route, DTO validation) and what the database throws, as envelopes. */
export function toApiError(exception: unknown, req: FastifyRequest): ApiError | null {
  if (exception instanceof ApiError) return exception;
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 404) {
      return gatewayError(404, 'not_found', 'route_not_found', `No route ${req.method} ${req.url.split('?')[0]}; the routes are listed at /docs.`);
    }
    if (status === 415) return unsupportedMediaType(); // Fastify's own refusal of an unreadable Content-Type header
    if (status === 400) {
      const response = exception.getResponse() as { message?: unknown };
      const messages = Array.isArray(response.message) ? response.message.map(String) : [exception.message];
      return gatewayError(400, 'invalid_arguments', 'invalid_argument_value', messages.join('; '), {
        fields: { code: 'invalid_argument_value', errors: messages },
      });
    }
    return gatewayError(status, status >= 500 ? 'internal' : 'invalid_arguments', 'http_error', exception.message);
  }
  if (refusedByPlugin(exception)) {
    // The static files under /docs refuse a path that climbs out of their folder (403) or names nothing there (404): nothing is served either way.
    return gatewayError(404, 'not_found', 'route_not_found', `Nothing is served at ${req.url.split('?')[0]}; the routes are listed at /docs.`);
  }
  const failure = storeFailureOf(exception);
  if (failure?.kind === 'transient') {
    return gatewayError(503, 'resource_limit', failure.reason, 'The database could not complete the transaction in time; resend the same request.', {
      retryable: 'same_request',
      headers: { 'Retry-After': '1' },
    });
  }
  if (failure?.kind === 'unreachable') {
    // The statement in flight may have committed: the resend with the same key finds it, so this is never a refusal.
    return gatewayError(503, 'unavailable', failure.reason, 'The database is unreachable; resend the same request shortly.', {
      headers: { 'Retry-After': '2' },
    });
  }
  return null;
}

/** A Fastify plugin's own refusal (an Error carrying statusCode 403 or 404), not a fault of ours. */
function refusedByPlugin(exception: unknown): boolean {
  const status = (exception as { statusCode?: unknown } | null)?.statusCode;
  return exception instanceof Error && (status === 403 || status === 404);
}

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(private readonly runtime: ApiRuntime) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const known = toApiError(exception, req);
    if (!known || known.httpStatus >= 500) this.runtime.reportError(exception, `${req.method} ${req.url}`, req.id);
    const error =
      known ?? gatewayError(500, 'internal', 'internal', 'An unexpected error occurred; resend the request once, then report it with its request id.');
    if (reply.sent || reply.raw.headersSent) {
      reply.raw.end();
      return;
    }
    sendApiError(reply, req.id, error);
  }
}

/** The error's status, headers and body, with the request id as the envelope's trace_id. */
export function sendApiError(reply: FastifyReply, traceId: string, error: ApiError): void {
  void reply.code(error.httpStatus).headers(error.headers).send(withTraceId(error.body, traceId));
}

/**
 * What Fastify's router refuses before any hook or handler runs (a malformed URL, an over-long path
 * parameter), answered with the same envelope as everything else (Fastify's `frameworkErrors`).
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const refusal =
    error.statusCode === 414
      ? gatewayError(414, 'resource_limit', 'uri_too_long', 'A path segment is longer than the router admits.') // Fastify's message repeats the whole path
      : gatewayError(400, 'invalid_arguments', 'malformed_request', error.message);
  reply.header('X-Request-Id', request.id); // the onRequest hook that sets it on every other answer has not run
  sendApiError(reply, request.id, refusal);
}
