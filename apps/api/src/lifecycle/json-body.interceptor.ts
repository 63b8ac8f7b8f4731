import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { json, type Request, type RequestHandler, type Response } from 'express';
import type { Observable } from 'rxjs';
import { gatewayError } from '../errors/api-error';
import { ApiRuntime } from '../api-runtime';

const isJsonType = (contentType: string | undefined): boolean => {
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'));
};

const hasBody = (req: Request): boolean =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/**
 * Reads the JSON body after the guard has run (Nest runs interceptors after guards), so an
 * unauthenticated client cannot make the gateway parse megabytes. No body at all reads as {}.
 */
@Injectable()
export class JsonBodyInterceptor implements NestInterceptor {
  private readonly parse: RequestHandler;

  constructor(private readonly runtime: ApiRuntime) {
    this.parse = json({ limit: runtime.config.bodyLimitBytes, strict: true, type: () => true });
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      if (hasBody(req)) await this.read(req, http.getResponse<Response>());
      req.body ??= {};
    }
    return next.handle();
  }

  private async read(req: Request, res: Response): Promise<void> {
    if (!isJsonType(req.headers['content-type'])) {
      throw gatewayError(415, 'invalid_arguments', 'unsupported_media_type', 'Send the arguments as JSON: Content-Type: application/json.', {
        fields: { code: 'unsupported_media_type' },
      });
    }
    await new Promise<void>((resolve, reject) => this.parse(req, res, (error?: unknown) => (error ? reject(this.refusal(error)) : resolve())));
  }

  private refusal(error: unknown) {
    const e = error as { type?: string; status?: number; message?: string };
    if (e.type === 'entity.too.large') {
      const limit = this.runtime.config.bodyLimitBytes;
      return gatewayError(413, 'resource_limit', 'request_too_large', `The request body is larger than ${limit} bytes.`, {
        fields: { code: 'request_too_large', limit_bytes: limit },
      });
    }
    if (e.status === 415) {
      return gatewayError(415, 'invalid_arguments', 'unsupported_encoding', String(e.message), { fields: { code: 'unsupported_encoding' } });
    }
    return gatewayError(400, 'invalid_arguments', 'invalid_json', `The request body is not valid JSON: ${String(e.message)}`, {
      fields: { code: 'invalid_json' },
    });
  }
}
