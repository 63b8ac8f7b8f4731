import type { ErrorCode, Retryable } from '@palimpsest/core/errors/error-model';
import { envelope } from './error-envelope';

/**
 * A refusal the gateway itself makes (auth, headers, body, saturation, shutdown). The filter renders
 * it with the same body shape as an operation's error: status, failure_detail, error.
 */
export class ApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(String(body.failure_detail ?? 'request refused'));
  }
}

export interface GatewayErrorOptions {
  retryable?: Retryable;
  headers?: Record<string, string>;
  /** Fields beside status and failure_detail (code, argument, …). */
  fields?: Record<string, unknown>;
}

/** The operation-style status word for a gateway refusal. */
function statusWord(httpStatus: number): string {
  if ([400, 413, 414, 415, 431].includes(httpStatus)) return 'invalid_argument';
  if (httpStatus === 404) return 'not_found';
  return 'error';
}

export function gatewayError(
  httpStatus: number,
  code: ErrorCode,
  reason: string,
  message: string,
  opts: GatewayErrorOptions = {},
): ApiError {
  const body = {
    status: statusWord(httpStatus),
    ...opts.fields,
    failure_detail: message,
    error: envelope(code, reason, message, { retryable: opts.retryable }),
  };
  return new ApiError(httpStatus, body, opts.headers);
}

/** An argument problem found at the edge, shaped like the catalog's invalid_argument answers. */
export function invalidArgumentError(tool: string, code: string, message: string, extra: Record<string, unknown> = {}): ApiError {
  return gatewayError(400, 'invalid_arguments', code, message, { fields: { code, tool, ...extra } });
}

/** An answer's body with this request's id as the envelope's trace_id (bodies without an envelope are left as they are). */
export function withTraceId<T extends Record<string, unknown>>(body: T, traceId: string): T {
  const error = body.error;
  if (error === null || typeof error !== 'object') return body;
  return { ...body, error: { ...(error as object), trace_id: traceId } };
}
