import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Logger } from 'pino';
import type { AuthenticatedRequest } from '../auth/token-verifier';
import { gatewayError } from '../errors/api-error';
import type { ApiMetrics } from '../observability/api-metrics';

/**
 * Fastify's first onRequest hook, ahead of routing's guards and handlers: echoes the request id,
 * counts requests in flight (shutdown waits for them), refuses new ones with 503 once draining, and
 * when each response closes records it in the metrics under its route pattern (never the raw URL,
 * so label values stay bounded) and writes its one access-log line.
 */
export class RequestTracker {
  draining = false;
  private readonly open = new Set<ServerResponse>();
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly metrics: ApiMetrics,
    private readonly logger: Logger,
  ) {}

  readonly onRequest = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const started = performance.now();
    const res = reply.raw;
    res.setHeader('X-Request-Id', request.id); // on the raw response, so hijacked (SSE) answers carry it too
    this.open.add(res);
    res.once('close', () => {
      this.open.delete(res);
      this.completed(request, res, performance.now() - started);
      if (this.open.size === 0) this.idleWaiters.splice(0).forEach((wake) => wake());
    });
    if (this.draining) refuseWhileDraining(request, reply);
    else done();
  };

  get inFlight(): number {
    return this.open.size;
  }

  /**
   * From now on every new request is refused with 503, and the answers still being worked on close
   * their connection when sent, so no client reuses a socket that is about to go away.
   */
  startDraining(): void {
    this.draining = true;
    for (const res of this.open) if (!res.headersSent) res.setHeader('Connection', 'close');
  }

  /**
   * Resolves once nothing has been in flight for `quietMs` (true), or at the deadline (false). The
   * quiet period matters: requests already sent on open keep-alive sockets are read one event-loop
   * turn at a time, so "nothing in flight" can be true for an instant while more are on the wire;
   * they are answered (503, Connection: close) instead of being cut off with a reset.
   */
  async settle(graceMs: number, quietMs = 200): Promise<boolean> {
    const deadline = Date.now() + graceMs;
    for (;;) {
      if (!(await this.idle(deadline - Date.now()))) return false;
      const quiet = await new Promise<boolean>((resolve) => setTimeout(() => resolve(this.open.size === 0), quietMs));
      if (quiet) return true;
      if (Date.now() >= deadline) return false;
    }
  }

  private idle(ms: number): Promise<boolean> {
    if (this.open.size === 0) return Promise.resolve(true);
    if (ms <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private completed(request: FastifyRequest, res: ServerResponse, ms: number): void {
    const route = request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
    this.metrics.httpDone(request.method, route, res.statusCode, ms / 1000);
    const aborted = !res.writableFinished;
    const level = aborted || res.statusCode >= 500 ? 'error' : 'info';
    if (!this.logger.isLevelEnabled(level)) return;
    const principal = (request as AuthenticatedRequest).principal;
    this.logger[level](
      {
        req: { id: request.id, method: request.method, url: request.url, remote: request.socket.remoteAddress },
        res: { status: res.statusCode },
        responseTime: Math.round(ms),
        ...(principal ? { token: principal.name } : {}),
      },
      aborted ? 'request aborted' : 'request completed',
    );
  }
}

/**
 * 503 with Connection: close — after reading what the client sent: closing a socket with unread bytes
 * makes TCP reset it, and the client would see ECONNRESET instead of the answer.
 */
function refuseWhileDraining(request: FastifyRequest, reply: FastifyReply): void {
  const refusal = gatewayError(503, 'unavailable', 'shutting_down', 'The gateway is shutting down; retry on another instance or after it restarts.');
  const req = request.raw;
  let sent = false;
  const send = () => {
    if (sent) return;
    sent = true;
    void reply.code(refusal.httpStatus).header('Connection', 'close').header('Retry-After', '1').send(refusal.body);
  };
  if (req.complete) return send();
  req.once('end', send).once('error', send).resume();
  setTimeout(send, 1000).unref();
}
