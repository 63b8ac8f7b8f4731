/** How often a tools/call that carries `_meta.progressToken` hears about a long wait (an approval). */
export const DEFAULT_PROGRESS_MS = 5_000;

/** PALIMPSEST_MCP_PROGRESS_MS: milliseconds between notifications/progress, at least 10; default 5 s. */
export function progressIntervalFrom(env: NodeJS.ProcessEnv): number {
  const raw = env.PALIMPSEST_MCP_PROGRESS_MS;
  if (raw === undefined || raw === '') return DEFAULT_PROGRESS_MS;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 10) throw new RangeError(`PALIMPSEST_MCP_PROGRESS_MS must be an integer >= 10, got ${JSON.stringify(raw)}`);
  return value;
}
