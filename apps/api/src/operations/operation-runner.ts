import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { dispatchRequest } from '@palimpsest/application/dispatch/dispatch';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { OperationName } from '@palimpsest/protocol/catalog/catalog';
import type { AnyAnswer } from '@palimpsest/protocol/outcome';
import { CORRELATION_ID_HEADER, isCorrelationId } from '@palimpsest/protocol/catalog/operations/audit.operations';
import { ApiRuntime } from '../api-runtime';
import type { AuthenticatedRequest } from '../auth/scope.guard';
import { invalidArgumentError } from '../errors/api-error';
import { httpOutcome } from '../routes/http-outcome';
import { operationArgs } from '../routes/operation-args';
import { pathArgumentOf, routeOf, type OperationRoute } from '../routes/route-table';

const header = (req: FastifyRequest, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/**
 * What every catalog route does: request → arguments → a slot → dispatchRequest() (the same path MCP
 * takes) → the answer with its HTTP status, headers and, for errors, the envelope.
 */
@Injectable()
export class OperationRunner {
  constructor(private readonly runtime: ApiRuntime) {}

  /** `body` is the parsed JSON body of a POST route (its controller reads it with @JsonBody()). */
  async run(operation: OperationName, req: AuthenticatedRequest, reply: FastifyReply, body?: unknown): Promise<void> {
    const route = routeOf(operation);
    const correlationId = this.correlationOf(operation, req);
    reply.header(CORRELATION_ID_HEADER, correlationId);
    const args = operationArgs(route, {
      pathId: (req.params as { id?: string }).id,
      query: req.query as Record<string, unknown>,
      body,
      ifMatch: header(req, 'if-match'),
      idempotencyKey: req.raw.headersDistinct['idempotency-key'],
    });
    // Without the write scope a caller runs the read-only profile, as over MCP (accessOf): a write route
    // under the read scope serves only the part of its operation that records nothing.
    const readOnly = req.principal !== undefined && !req.principal.scopes.includes('write');
    const result = await this.execute(operation, args, { policy: req.principal?.policy, readOnly, correlationId });
    send(route, result, req, reply);
  }

  /**
   * The session the call belongs to: the caller's X-Correlation-Id when it sends one (a client that
   * wants its calls read together sends the same one with each), else a fresh id for this request alone.
   * Answered in the X-Correlation-Id response header either way.
   */
  private correlationOf(operation: OperationName, req: FastifyRequest): string {
    const given = header(req, CORRELATION_ID_HEADER.toLowerCase());
    if (given === undefined) return this.runtime.ctx.ids.next();
    if (!isCorrelationId(given)) {
      throw invalidArgumentError(operation, 'invalid_correlation_id', `${CORRELATION_ID_HEADER} must be 1 to 128 of A-Z a-z 0-9 . _ : - (one header).`, { argument: CORRELATION_ID_HEADER });
    }
    return given;
  }

  private async execute(operation: OperationName, args: Record<string, unknown>, opts: { policy: OwnerPolicy | undefined; readOnly: boolean; correlationId: string }): Promise<AnyAnswer> {
    const release = await this.runtime.limiter.acquire();
    const started = performance.now();
    let result: AnyAnswer | null = null;
    try {
      result = await dispatchRequest(this.runtime.ctx, operation, args, opts);
      return result;
    } finally {
      release();
      this.runtime.metrics.operationDone(operation, result, (performance.now() - started) / 1000);
    }
  }
}

function matchesAny(headerValue: string | undefined, tag: string): boolean {
  if (!headerValue) return false;
  return headerValue.split(',').some((t) => {
    const candidate = t.trim();
    return candidate === '*' || candidate === tag || candidate === `W/${tag}`;
  });
}

/** The version a read answered with: a target's, or a candidate's. */
function versionOf(result: Record<string, unknown>): number | null {
  if (typeof result.version === 'number') return result.version;
  const candidate = result.candidate as { version?: unknown } | undefined;
  return typeof candidate?.version === 'number' ? candidate.version : null;
}

export function send(route: OperationRoute, result: AnyAnswer, req: FastifyRequest, reply: FastifyReply): void {
  const outcome = httpOutcome(route, result);
  const version = route.etag && outcome.status < 300 ? versionOf(result) : null;
  if (version !== null) {
    const tag = `"${version}"`;
    reply.header('ETag', tag).header('Cache-Control', 'no-cache');
    if (matchesAny(header(req, 'if-none-match'), tag)) {
      void reply.code(304).send();
      return;
    }
  }
  if (outcome.status === 201 && !pathArgumentOf(route) && typeof result.target_file_id === 'string') {
    reply.header('Location', `/v1/targets/${result.target_file_id}`);
  }
  const error = outcome.error ?? (result.error as object | undefined); // candidate answers carry their own
  const body = outcome.status >= 400 && error ? { ...result, error: { ...error, trace_id: req.id } } : result;
  void reply.code(outcome.status).send(body);
}
