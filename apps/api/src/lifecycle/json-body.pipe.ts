import { createParamDecorator, Injectable, type ExecutionContext, type PipeTransform, type Type } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiRuntime } from '../api-runtime';
import { hasBody, readJsonBody } from './json-body';

/**
 * Reads a request's JSON body (at most PALIMPSEST_API_BODY_LIMIT bytes); no body at all reads as {}.
 * It runs as a parameter pipe, so after the guards: an unauthenticated client cannot make the
 * gateway read, let alone parse, megabytes.
 */
@Injectable()
export class JsonBodyPipe implements PipeTransform<FastifyRequest, Promise<unknown>> {
  constructor(private readonly runtime: ApiRuntime) {}

  transform(request: FastifyRequest): Promise<unknown> {
    return hasBody(request.raw) ? readJsonBody(request.raw, this.runtime.config.bodyLimitBytes) : Promise.resolve({});
  }
}

const RequestParam = createParamDecorator((_data: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<FastifyRequest>());

/**
 * The parsed JSON body, like `@Body()` — which reads what Fastify parsed before the guards ran, so the
 * gateway's Fastify leaves bodies unread (see deferBodyParsing). Further pipes (a ValidationPipe) follow.
 */
export const JsonBody = (...pipes: (Type<PipeTransform> | PipeTransform)[]): ParameterDecorator => RequestParam(JsonBodyPipe, ...pipes);
