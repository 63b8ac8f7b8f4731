import type { NextFunction, Request, Response } from 'express';
import { gatewayError } from '../errors/api-error';
import type { ApiMetrics } from '../observability/api-metrics';

/**
 * Express-level middleware, ahead of everything else: counts requests in flight (shutdown waits for
 * them), refuses new ones with 503 once draining, and records each response in the metrics under
 * its route pattern (never the raw URL, so label values stay bounded).
 */
export class RequestTracker {
  draining = false;
  private readonly open = new Set<Response>();
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly metrics: ApiMetrics) {}

  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    this.open.add(res);
    res.once('close', () => {
      this.open.delete(res);
      const route = req.route?.path ? String(req.route.path) : 'unmatched';
      this.metrics.httpDone(req.method, route, res.statusCode, (performance.now() - started) / 1000);
      if (this.open.size === 0) this.idleWaiters.splice(0).forEach((wake) => wake());
    });
    if (this.draining) refuseWhileDraining(req, res);
    else next();
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
}

/**
 * 503 with Connection: close — after reading what the client sent: closing a socket with unread bytes
 * makes TCP reset it, and the client would see ECONNRESET instead of the answer.
 */
function refuseWhileDraining(req: Request, res: Response): void {
  const refusal = gatewayError(503, 'unavailable', 'shutting_down', 'The gateway is shutting down; retry on another instance or after it restarts.');
  let sent = false;
  const send = () => {
    if (sent) return;
    sent = true;
    res.setHeader('Connection', 'close');
    res.setHeader('Retry-After', '1');
    res.status(refusal.httpStatus).json(refusal.body);
  };
  if (req.complete) return send();
  req.once('end', send).once('error', send).resume();
  setTimeout(send, 1000).unref();
}

