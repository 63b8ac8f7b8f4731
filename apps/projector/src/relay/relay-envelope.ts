import type { StoredEvent } from '@palimpsest/store/stored-event';

/**
 * The JSON body of every message the relay publishes (docs/relay.md; JSON Schema:
 * schemas/relay/nats-envelope.v1.json). The event exactly as stored, snake_case like the log's columns:
 * `data` is the payload at `schema_version` (schemas/events/<type>.v<schema_version>.json), not upcast.
 */
export interface RelayEnvelope {
  global_position: number;
  stream_id: string;
  stream_type: string;
  stream_version: number;
  event_type: string;
  schema_version: number;
  data: unknown;
  metadata: Record<string, unknown>;
  recorded_at: string;
  /** xid8 of the appending transaction, decimal text: with global_position, the relay's order. */
  transaction_xid: string;
}

export function toEnvelope(event: StoredEvent): RelayEnvelope {
  return {
    global_position: event.globalPosition,
    stream_id: event.streamId,
    stream_type: streamTypeOf(event.streamId),
    stream_version: event.streamVersion,
    event_type: event.type,
    schema_version: event.schemaVersion,
    data: event.data,
    metadata: event.metadata,
    recorded_at: event.recordedAt,
    transaction_xid: event.transactionXid,
  };
}

/** `target-<uuid>` → `target`: the id's prefix before its first hyphen (the whole id when it has none). */
export function streamTypeOf(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash > 0 ? streamId.slice(0, dash) : streamId;
}

/** `<prefix>.<stream type>.<stream id>.<event type>`, each part one valid NATS token (subjectToken). */
export function subjectOf(prefix: string, event: Pick<StoredEvent, 'streamId' | 'type'>): string {
  return `${prefix}.${subjectToken(streamTypeOf(event.streamId))}.${subjectToken(event.streamId)}.${subjectToken(event.type)}`;
}

const UNSAFE = /[^A-Za-z0-9_-]/gu;

/**
 * One NATS subject token: letters, digits, `_` and `-` stay; anything else (`.`, `*`, `>`, spaces,
 * `%` itself, non-ASCII) becomes `%XX` per UTF-8 byte, so the token never splits or turns into a
 * wildcard and the original is recovered with decodeURIComponent.
 */
export function subjectToken(text: string): string {
  if (text.length === 0) throw new RangeError('a subject token cannot be empty');
  return text.replace(UNSAFE, (char) => [...Buffer.from(char, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''));
}

/** The message id JetStream deduplicates on: the event's global position. */
export function msgIdOf(event: Pick<StoredEvent, 'globalPosition'>): string {
  return String(event.globalPosition);
}
