import { UsageError } from './cli-errors';
import { cliCorrelationId } from './correlation-id';

describe('the CLI\'s correlation id', () => {
  it('is PALIMPSEST_CORRELATION_ID when it names one, else a fresh id per invocation', () => {
    expect(cliCorrelationId({ PALIMPSEST_CORRELATION_ID: 'ci-job_42.step:3' })).toBe('ci-job_42.step:3');
    const fresh = cliCorrelationId({});
    expect(fresh).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(cliCorrelationId({ PALIMPSEST_CORRELATION_ID: '' })).not.toBe(fresh);
  });

  it('refuses one that is not 1 to 128 of A-Z a-z 0-9 . _ : -', () => {
    for (const bad of ['has space', 'x'.repeat(129), 'a/b', 'ünï', 'a\nb']) {
      expect(() => cliCorrelationId({ PALIMPSEST_CORRELATION_ID: bad })).toThrow(UsageError);
    }
    expect(cliCorrelationId({ PALIMPSEST_CORRELATION_ID: 'x'.repeat(128) })).toHaveLength(128);
  });
});
