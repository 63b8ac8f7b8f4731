import { SCHEMA_BASE } from '../publish/event-schemas';

/** The executor link's protocol version: an executor's hello names the version it speaks. */
export const EXECUTOR_PROTOCOL_VERSION = 1;
/** The oldest version the gateway still accepts in a hello. */
export const EXECUTOR_MIN_PROTOCOL_VERSION = 1;

/** The protocol's limits, in milliseconds, bytes or counts, as the protocol states them. */
export const EXECUTOR_LIMITS = {
  APPROVAL_WAIT_MS: 90_000,
  DEFAULT_COMMAND_TIMEOUT_MS: 60_000,
  HEARTBEAT_INTERVAL_MS: 30_000,
  HEARTBEAT_TIMEOUT_MS: 90_000,
  MAX_APPROVAL_PROMPT_LENGTH: 2_048,
  MAX_COMMAND_OUTPUT_BYTES: 200_000,
  MAX_COMMAND_TIMEOUT_MS: 300_000,
  MAX_GREP_MATCHES: 200,
  MAX_LIST_ENTRIES: 1_000,
  MAX_PROCESSES_PER_PROJECT: 8,
  MAX_PROCESS_BUFFER_BYTES: 256_000,
  MAX_PROCESS_CHUNK_BYTES: 100_000,
  MAX_READ_BYTES: 500_000,
  MAX_RESULT_BYTES: 1_000_000,
  PRESENCE_CHECKPOINT_INTERVAL_MS: 900_000,
  PRESENCE_SIGNAL_INTERVAL_MS: 300_000,
  PRESENCE_TIMEOUT_MS: 1_500_000,
  RELAY_TIMEOUT_MS: 310_000,
} as const;

/**
 * The largest message either side accepts, in UTF-8 bytes of the JSON text: the largest tool result
 * (MAX_RESULT_BYTES) plus 64 KiB for its envelope. A WebSocket frame beyond it is refused before it
 * is buffered whole (close code 1009).
 */
export const EXECUTOR_MAX_MESSAGE_BYTES = EXECUTOR_LIMITS.MAX_RESULT_BYTES + 65_536;

/** Where the two message schemas publish, relative to schemas/. */
export const EXECUTOR_MESSAGE_SCHEMA_PATH = 'executor/executor-message.v1.json';
export const RELAY_MESSAGE_SCHEMA_PATH = 'executor/relay-message.v1.json';
export const EXECUTOR_SCHEMA_BASE = SCHEMA_BASE;
