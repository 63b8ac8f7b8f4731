import { DiscardPolicy, nanos, RetentionPolicy, StorageType, type JetStreamManager, type NatsError, type StreamConfig } from 'nats';

export interface StreamSpec {
  stream: string;
  subjectPrefix: string;
  dedupeWindowMs: number;
}

const STREAM_NOT_FOUND = 10059;
const STREAM_NAME_IN_USE = 10058;

/**
 * Creates the relay's JetStream stream, or brings an existing one to the relay's subjects and duplicate
 * window (keeping whatever else an operator configured: limits, replicas, storage).
 */
export async function ensureStream(jsm: JetStreamManager, spec: StreamSpec): Promise<StreamConfig> {
  const subject = `${spec.subjectPrefix}.>`;
  const window = nanos(spec.dedupeWindowMs);
  for (let attempt = 0; ; attempt += 1) {
    try {
      const { config } = await jsm.streams.info(spec.stream);
      if (config.duplicate_window === window && config.subjects?.includes(subject)) return config;
      const subjects = [...new Set([...(config.subjects ?? []), subject])];
      return (await jsm.streams.update(spec.stream, { ...config, subjects, duplicate_window: window })).config;
    } catch (error) {
      if (apiErrorCode(error) !== STREAM_NOT_FOUND) throw error;
    }
    try {
      return (await jsm.streams.add({
        name: spec.stream,
        subjects: [subject],
        duplicate_window: window,
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        discard: DiscardPolicy.Old,
      })).config;
    } catch (error) {
      // Another relay created it between our two calls: read it again once.
      if (apiErrorCode(error) !== STREAM_NAME_IN_USE || attempt > 0) throw error;
    }
  }
}

function apiErrorCode(error: unknown): number | undefined {
  return (error as NatsError | undefined)?.api_error?.err_code;
}
