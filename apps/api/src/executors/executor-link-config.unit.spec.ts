import { EXECUTOR_LIMITS } from '@palimpsest/protocol/executor/executor-protocol';
import { closeReason } from './executor-close-codes';
import { executorLinkConfigFrom } from './executor-link-config';

describe('executorLinkConfigFrom', () => {
  it('takes the protocol\'s heartbeat interval and timeout by default', () => {
    expect(executorLinkConfigFrom({})).toEqual({ heartbeatIntervalMs: EXECUTOR_LIMITS.HEARTBEAT_INTERVAL_MS, heartbeatTimeoutMs: EXECUTOR_LIMITS.HEARTBEAT_TIMEOUT_MS });
  });

  it('reads shorter ones from the environment', () => {
    const env = { PALIMPSEST_EXECUTOR_HEARTBEAT_INTERVAL_MS: '200', PALIMPSEST_EXECUTOR_HEARTBEAT_TIMEOUT_MS: '1500' };
    expect(executorLinkConfigFrom(env)).toEqual({ heartbeatIntervalMs: 200, heartbeatTimeoutMs: 1500 });
  });

  it.each([
    [{ PALIMPSEST_EXECUTOR_HEARTBEAT_INTERVAL_MS: '0' }, /INTERVAL_MS must be a positive integer/],
    [{ PALIMPSEST_EXECUTOR_HEARTBEAT_TIMEOUT_MS: '1.5' }, /TIMEOUT_MS must be a positive integer/],
    [{ PALIMPSEST_EXECUTOR_HEARTBEAT_INTERVAL_MS: '500', PALIMPSEST_EXECUTOR_HEARTBEAT_TIMEOUT_MS: '500' }, /must exceed the heartbeat interval/],
  ])('refuses %j', (env, message) => {
    expect(() => executorLinkConfigFrom(env)).toThrow(message);
  });
});

describe('closeReason', () => {
  it('keeps a close reason within the 123 bytes RFC 6455 allows, cutting whole characters', () => {
    expect(closeReason('token_revoked', 'the token was revoked')).toBe('token_revoked: the token was revoked');
    const long = closeReason('invalid_message', 'é'.repeat(200));
    expect(Buffer.byteLength(long, 'utf8')).toBeLessThanOrEqual(123);
    expect(long).toMatch(/^invalid_message: é+$/);
  });
});
