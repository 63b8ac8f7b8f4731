import { EXECUTOR_LIMITS } from '@palimpsest/protocol/executor/executor-protocol';

export interface RelayConfig {
  /** The deadline of a relayed file tool call (PALIMPSEST_RELAY_TIMEOUT_MS, default the protocol's RELAY_TIMEOUT_MS). */
  timeoutMs: number;
}

export function relayConfigFrom(env: NodeJS.ProcessEnv): RelayConfig {
  const raw = env.PALIMPSEST_RELAY_TIMEOUT_MS;
  if (raw === undefined || raw === '') return { timeoutMs: EXECUTOR_LIMITS.RELAY_TIMEOUT_MS };
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`PALIMPSEST_RELAY_TIMEOUT_MS must be a positive integer of milliseconds, got ${JSON.stringify(raw)}`);
  return { timeoutMs: value };
}

/** A command's deadline is its own timeout (default DEFAULT_COMMAND_TIMEOUT_MS) and 10 s to answer; any other call's the relay's. */
export function relayDeadlineMs(config: RelayConfig, tool: string, args: Record<string, unknown>): number {
  if (tool !== 'run_command') return config.timeoutMs;
  const timeout = typeof args.timeoutMs === 'number' ? args.timeoutMs : EXECUTOR_LIMITS.DEFAULT_COMMAND_TIMEOUT_MS;
  return Math.max(config.timeoutMs, timeout + 10_000);
}
