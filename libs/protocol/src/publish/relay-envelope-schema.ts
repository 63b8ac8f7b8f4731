import type { JsonSchema } from '../catalog/operation-spec';
import { PUBLISHED_EVENT_SCHEMAS, SCHEMA_BASE } from './event-schemas';

/** Where the relay's envelope schema is published, relative to schemas/. */
export const RELAY_ENVELOPE_SCHEMA_PATH = 'relay/nats-envelope.v1.json';

const decimal = { type: 'string', pattern: '^(0|[1-9][0-9]*)$' };

/**
 * JSON Schema (2020-12) of the body of every message the NATS relay publishes
 * (apps/projector/src/relay/relay-envelope.ts, docs/relay.md). `data` of a known event type at a published
 * schema version must match that version's schema; other types and versions are left open.
 */
export function relayEnvelopeSchema(): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${SCHEMA_BASE}/${RELAY_ENVELOPE_SCHEMA_PATH}`,
    title: 'RelayEnvelope',
    description:
      'One committed event as published to NATS JetStream (stream PALIMPSEST, subject palimpsest.<stream_type>.<stream_id>.<event_type>, header Nats-Msg-Id = global_position).',
    type: 'object',
    additionalProperties: false,
    required: ['global_position', 'stream_id', 'stream_type', 'stream_version', 'event_type', 'schema_version', 'data', 'metadata', 'recorded_at', 'transaction_xid'],
    properties: {
      global_position: { type: 'integer', minimum: 1, description: 'The event\'s position in the log; also the Nats-Msg-Id header (decimal).' },
      stream_id: { type: 'string', minLength: 1, description: 'e.g. target-<uuid>, candidate-<uuid>, publication-<uuid>.' },
      stream_type: { type: 'string', minLength: 1, description: 'stream_id up to its first hyphen (the whole id when it has none).' },
      stream_version: { type: 'integer', minimum: 1, description: 'Contiguous from 1 within the stream: a consumer sees them in this order.' },
      event_type: { type: 'string', minLength: 1 },
      schema_version: { type: 'integer', minimum: 1, description: 'The version of data\'s schema: schemas/events/<event-type>.v<schema_version>.json.' },
      data: { description: 'The event payload exactly as stored (not upcast).' },
      metadata: { type: 'object' },
      recorded_at: { type: 'string', format: 'date-time' },
      transaction_xid: { ...decimal, description: 'The appending transaction\'s id (xid8); the relay publishes in (transaction_xid, global_position) order.' },
    },
    allOf: PUBLISHED_EVENT_SCHEMAS.map(({ type, version, schema }) => ({
      if: { properties: { event_type: { const: type }, schema_version: { const: version } }, required: ['event_type', 'schema_version'] },
      then: { properties: { data: { $ref: String(schema.$id) } } },
    })),
  };
}
