import { relayOptionsFromEnv, RelayConfigError, RELAY_DEFAULTS, type RelayLogger } from './relay-config';

const logger: RelayLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('relay configuration', () => {
  it('is off when PALIMPSEST_NATS_URL is unset or empty', () => {
    expect(relayOptionsFromEnv({}, logger)).toBeNull();
    expect(relayOptionsFromEnv({ PALIMPSEST_NATS_URL: '  ' }, logger)).toBeNull();
  });

  it('takes the defaults, and the optional overrides', () => {
    expect(relayOptionsFromEnv({ PALIMPSEST_NATS_URL: 'nats://h:4222' }, logger)).toMatchObject({ ...RELAY_DEFAULTS, url: 'nats://h:4222' });
    expect(relayOptionsFromEnv({
      PALIMPSEST_NATS_URL: 'nats://h:4222', PALIMPSEST_NATS_STREAM: 'EVENTS', PALIMPSEST_NATS_SUBJECT_PREFIX: 'acme.palimpsest',
      PALIMPSEST_NATS_DEDUPE_WINDOW_MS: '60000', PALIMPSEST_NATS_BATCH_SIZE: '100',
    }, logger)).toMatchObject({ stream: 'EVENTS', subjectPrefix: 'acme.palimpsest', dedupeWindowMs: 60000, batchSize: 100 });
  });

  it.each([
    ['PALIMPSEST_NATS_STREAM', 'a.b'],
    ['PALIMPSEST_NATS_SUBJECT_PREFIX', 'a.*'],
    ['PALIMPSEST_NATS_SUBJECT_PREFIX', 'a..b'],
    ['PALIMPSEST_NATS_BATCH_SIZE', '0'],
    ['PALIMPSEST_NATS_DEDUPE_WINDOW_MS', '1.5'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    expect(() => relayOptionsFromEnv({ PALIMPSEST_NATS_URL: 'nats://h:4222', [name]: value }, logger)).toThrow(RelayConfigError);
    expect(() => relayOptionsFromEnv({ PALIMPSEST_NATS_URL: 'nats://h:4222', [name]: value }, logger)).toThrow(new RegExp(name));
  });
});
