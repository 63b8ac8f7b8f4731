import { ApiError } from '../errors/api-error';
import { AdmissionLimiter } from './admission-limiter';

describe('the admission limiter', () => {
  it('queues past the bound in FIFO order and refuses with 429 when the queue is full', async () => {
    const saturated = jest.fn();
    const limiter = new AdmissionLimiter({ maxConcurrency: 1, maxQueue: 1, queueTimeoutMs: 1000 }, saturated);
    const first = await limiter.acquire();
    const order: string[] = [];
    const second = limiter.acquire().then((release) => (order.push('second'), release));
    await expect(limiter.acquire()).rejects.toMatchObject({ httpStatus: 429, headers: { 'Retry-After': '1' } });
    expect(saturated).toHaveBeenCalledTimes(1);
    expect(limiter.queued).toBe(1);
    first();
    first(); // a second release is ignored
    (await second)();
    expect(order).toEqual(['second']);
    expect(limiter.active).toBe(0);
  });

  it('refuses a request that waited longer than the queue timeout', async () => {
    const limiter = new AdmissionLimiter({ maxConcurrency: 1, maxQueue: 5, queueTimeoutMs: 20 });
    const held = await limiter.acquire();
    const error = await limiter.acquire().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).body).toMatchObject({ error: { code: 'resource_limit', reason: 'saturated', retryable: 'same_request' } });
    expect(limiter.queued).toBe(0);
    held();
  });
});
