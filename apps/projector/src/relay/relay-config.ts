/** How the relay is configured, from the environment the composition root passes (docs/relay.md "Configuration"). */

/** pino's shape (the gateway's logger fits as is). */
export interface RelayLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface NatsRelayOptions {
  /** NATS server URL(s), comma-separated: `nats://127.0.0.1:4222`. */
  url: string;
  /** JetStream stream name; created (or its subjects and duplicate window updated) at start. */
  stream: string;
  /** First subject token(s): messages go to `<prefix>.<stream type>.<stream id>.<event type>`. */
  subjectPrefix: string;
  /**
   * The stream's duplicate window. A relay that dies between the server's acks and its checkpoint
   * re-publishes that tail when it (or a standby) takes over; the re-publish is a no-op only within this window.
   */
  dedupeWindowMs: number;
  /** Events read, published and checkpointed together. */
  batchSize: number;
  /** Fallback read when no LISTEN wake-up arrives (and how often a standby retries the leader lock). */
  pollIntervalMs: number;
  /** The checkpoint's key in projection_checkpoints, also the leader lock's and the status's name. */
  checkpointName: string;
  logger: RelayLogger;
}

/** The relay's configuration as read once at start (the logger is the process's, not configuration). */
export type RelayConfig = Omit<NatsRelayOptions, 'logger'>;

export const RELAY_DEFAULTS = {
  stream: 'PALIMPSEST',
  subjectPrefix: 'palimpsest',
  dedupeWindowMs: 10 * 60_000,
  batchSize: 500,
  pollIntervalMs: 1000,
  checkpointName: 'relay:nats',
} as const;

export const RELAY_ENV = {
  url: 'PALIMPSEST_NATS_URL',
  stream: 'PALIMPSEST_NATS_STREAM',
  subjectPrefix: 'PALIMPSEST_NATS_SUBJECT_PREFIX',
  dedupeWindowMs: 'PALIMPSEST_NATS_DEDUPE_WINDOW_MS',
  batchSize: 'PALIMPSEST_NATS_BATCH_SIZE',
} as const;

const STREAM_NAME = /^[A-Za-z0-9_-]{1,255}$/;
const SUBJECT_PREFIX = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

export class RelayConfigError extends Error {}

/** The relay's configuration from the environment, or null when PALIMPSEST_NATS_URL is unset or empty (relay off). */
export function relayConfigFrom(env: NodeJS.ProcessEnv): RelayConfig | null {
  const url = env[RELAY_ENV.url]?.trim();
  if (!url) return null;
  return checked({
    ...RELAY_DEFAULTS,
    url,
    stream: env[RELAY_ENV.stream] || RELAY_DEFAULTS.stream,
    subjectPrefix: env[RELAY_ENV.subjectPrefix] || RELAY_DEFAULTS.subjectPrefix,
    dedupeWindowMs: positiveInt(env, 'dedupeWindowMs', RELAY_DEFAULTS.dedupeWindowMs),
    batchSize: positiveInt(env, 'batchSize', RELAY_DEFAULTS.batchSize),
  });
}

/** The relay's options from the environment, or null when the relay is off. */
export function relayOptionsFromEnv(env: NodeJS.ProcessEnv, logger: RelayLogger): NatsRelayOptions | null {
  const config = relayConfigFrom(env);
  return config && { ...config, logger };
}

/** Fills defaults and refuses what NATS would refuse later (names, subjects) with a clear message. */
export function checkedOptions(opts: Partial<NatsRelayOptions> & Pick<NatsRelayOptions, 'url' | 'logger'>): NatsRelayOptions {
  return { ...checked({ ...RELAY_DEFAULTS, ...opts }), logger: opts.logger };
}

function checked<T extends RelayConfig>(full: T): T {
  if (!STREAM_NAME.test(full.stream)) {
    throw new RelayConfigError(`${RELAY_ENV.stream} must be letters, digits, '_' or '-' (got ${JSON.stringify(full.stream)})`);
  }
  if (!SUBJECT_PREFIX.test(full.subjectPrefix)) {
    throw new RelayConfigError(`${RELAY_ENV.subjectPrefix} must be dot-separated tokens of letters, digits, '_' or '-' (got ${JSON.stringify(full.subjectPrefix)})`);
  }
  for (const key of ['dedupeWindowMs', 'batchSize', 'pollIntervalMs'] as const) {
    if (!Number.isSafeInteger(full[key]) || full[key] < 1) throw new RelayConfigError(`${key} must be a positive integer (got ${full[key]})`);
  }
  return full;
}

function positiveInt(env: NodeJS.ProcessEnv, key: 'dedupeWindowMs' | 'batchSize', fallback: number): number {
  const text = env[RELAY_ENV[key]];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(value) || value < 1) {
    throw new RelayConfigError(`${RELAY_ENV[key]} must be a positive integer (got ${JSON.stringify(text)})`);
  }
  return value;
}
