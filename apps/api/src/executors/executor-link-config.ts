import { EXECUTOR_LIMITS } from '@palimpsest/protocol/executor/executor-protocol';

/** Where executors (`palimpsest connect`) open their WebSocket. */
export const EXECUTOR_CONNECT_PATH = '/v1/executors/connect';

export interface ExecutorLinkConfig {
  /** What hello.ack tells the executor: send a heartbeat this often (PALIMPSEST_EXECUTOR_HEARTBEAT_INTERVAL_MS). */
  heartbeatIntervalMs: number;
  /** A connection silent for longer is closed (PALIMPSEST_EXECUTOR_HEARTBEAT_TIMEOUT_MS); also the time a new one has to say hello. */
  heartbeatTimeoutMs: number;
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer of milliseconds, got ${JSON.stringify(raw)}`);
  return value;
}

/** The protocol's defaults (30 s, 90 s), shortened by the environment for tests. */
export function executorLinkConfigFrom(env: NodeJS.ProcessEnv): ExecutorLinkConfig {
  const heartbeatIntervalMs = positiveInt(env, 'PALIMPSEST_EXECUTOR_HEARTBEAT_INTERVAL_MS', EXECUTOR_LIMITS.HEARTBEAT_INTERVAL_MS);
  const heartbeatTimeoutMs = positiveInt(env, 'PALIMPSEST_EXECUTOR_HEARTBEAT_TIMEOUT_MS', EXECUTOR_LIMITS.HEARTBEAT_TIMEOUT_MS);
  if (heartbeatTimeoutMs <= heartbeatIntervalMs) {
    throw new RangeError(`PALIMPSEST_EXECUTOR_HEARTBEAT_TIMEOUT_MS (${heartbeatTimeoutMs}) must exceed the heartbeat interval (${heartbeatIntervalMs})`);
  }
  return { heartbeatIntervalMs, heartbeatTimeoutMs };
}
