import { gatewayError } from '../errors/api-error';

export interface LimiterOptions {
  maxConcurrency: number;
  maxQueue: number;
  queueTimeoutMs: number;
}

interface Waiter {
  grant(): void;
}

/**
 * Bounds the operations running at once. Past the bound, requests wait in a FIFO queue; when the
 * queue is full, or a request waited queueTimeoutMs, the answer is 429 with Retry-After. This keeps
 * the database pool's own wait (which ends in a connection timeout, a 5xx) out of reach.
 */
export class AdmissionLimiter {
  active = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly opts: LimiterOptions,
    private readonly onSaturated: () => void = () => undefined,
  ) {}

  get queued(): number {
    return this.waiting.length;
  }

  async acquire(): Promise<() => void> {
    if (this.active < this.opts.maxConcurrency) {
      this.active++;
      return this.releaser();
    }
    if (this.waiting.length >= this.opts.maxQueue) throw this.saturated();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(timer);
          this.active++;
          resolve(this.releaser());
        },
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        reject(this.saturated());
      }, this.opts.queueTimeoutMs);
      this.waiting.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.waiting.shift()?.grant();
    };
  }

  private saturated() {
    this.onSaturated();
    return gatewayError(429, 'resource_limit', 'saturated', 'Every operation slot is busy and the queue is full; retry after the Retry-After delay.', {
      retryable: 'same_request',
      headers: { 'Retry-After': '1' },
    });
  }
}
