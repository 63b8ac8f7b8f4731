/** The command tools' limits, as the drop-in tool set publishes them. */
export const PROCESS_LIMITS = {
  DEFAULT_COMMAND_TIMEOUT_MS: 60_000,
  MAX_COMMAND_TIMEOUT_MS: 300_000,
  /** run_command keeps the last this many bytes of each stream. */
  MAX_COMMAND_OUTPUT_BYTES: 200_000,
  MAX_PROCESSES_PER_PROJECT: 8,
  MAX_PROCESS_BUFFER_BYTES: 256_000,
  MAX_PROCESS_CHUNK_BYTES: 100_000,
  /** SIGTERM first; what still lives this long after gets SIGKILL. */
  KILL_GRACE_MS: 2_000,
  /** The longest get_command_output may wait for new output or the exit. */
  MAX_OUTPUT_WAIT_MS: 30_000,
} as const;
