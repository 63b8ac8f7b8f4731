import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiRuntime } from '../api-runtime';
import { ApiError, gatewayError } from './api-error';

/** SQLSTATEs that mean "try again" rather than "wrong": lock timeout, serialization failure, deadlock. */
const TRANSIENT_SQLSTATES: Record<string, string> = { '55P03': 'lock_timeout', '40001': 'serialization_failure', '40P01': 'deadlock' };

function isUnreachable(error: { code?: string; message?: string }): boolean {
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P03', '08006', '08001'].includes(String(error.code)) ||
    /timeout exceeded when trying to connect|the database was closed|Connection terminated/i.test(String(error.message))
  );
}

/** What Nest itself throws (unknown route, DTO validation) and what the database throws, as envelopes. */
export function toApiError(exception: unknown, req: Request): ApiError | null {
  if (exception instanceof ApiError) return exception;
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 404) {
      return gatewayError(404, 'not_found', 'route_not_found', `No route ${req.method} ${req.path}; the routes are listed at /docs.`);
    }
    if (status === 400) {
      const response = exception.getResponse() as { message?: unknown };
      const messages = Array.isArray(response.message) ? response.message.map(String) : [exception.message];
      return gatewayError(400, 'invalid_arguments', 'invalid_argument_value', messages.join('; '), {
        fields: { code: 'invalid_argument_value', errors: messages },
      });
    }
    return gatewayError(status, status >= 500 ? 'internal' : 'invalid_arguments', 'http_error', exception.message);
  }
  const e = (exception ?? {}) as { code?: string; message?: string };
  const transient = TRANSIENT_SQLSTATES[String(e.code)];
  if (transient) {
    return gatewayError(503, 'resource_limit', transient, 'The database could not complete the transaction in time; resend the same request.', {
      retryable: 'same_request',
      headers: { 'Retry-After': '1' },
    });
  }
  if (isUnreachable(e)) {
    return gatewayError(503, 'unavailable', 'database_unavailable', 'The database is unreachable; resend the same request shortly.', {
      headers: { 'Retry-After': '2' },
    });
  }
  return null;
}

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(private readonly runtime: ApiRuntime) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    const known = toApiError(exception, req);
    if (!known || known.httpStatus >= 500) this.runtime.reportError(exception, `${req.method} ${req.originalUrl}`);
    const error =
      known ?? gatewayError(500, 'internal', 'internal', 'An unexpected error occurred; resend the request once, then report it with its request id.');
    if (res.headersSent) {
      res.end();
      return;
    }
    for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    const body = { ...error.body, error: { ...(error.body.error as object), trace_id: String(req.id ?? '') } };
    res.status(error.httpStatus).json(body);
  }
}
