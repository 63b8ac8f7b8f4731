import type { JsonSchema } from '../catalog/operation-spec';
import { all, count, nullable, sha256, text, timestamp } from '../publish/event-schema-parts';
import { payloadSchemas } from '../publish/payload-schemas';
import { EXECUTOR_TOOL_NAMES } from './executor-messages';

/**
 * JSON Schemas (2020-12) of a relayed call's record on the gateway (stream `relay-call-<sha256(key)>`),
 * schema version 1, published beside the other events under schemas/events/ (docs/executors.md).
 */
const PAYLOADS: Record<string, [string, JsonSchema]> = {
  RelayCallSent: ['A file or command tool call for an executor\'s project, recorded before its tool.call left the gateway.', all({
    key: { ...text, description: 'The idempotency key: the caller\'s client_request_id, or one the gateway made.' },
    request_id: { ...text, description: 'The tool.call\'s requestId, the same on every send of this key.' },
    project_id: text,
    device_id: { ...text, description: 'The executor holding the project when the call was recorded.' },
    tool: { enum: [...EXECUTOR_TOOL_NAMES] },
    request_sha256: { ...sha256, description: 'SHA-256 of the tool, project and arguments: a resent key must ask the same.' },
    arguments: { type: 'object', description: 'The tool\'s arguments as sent.' },
    correlation_id: nullable(text),
    client: nullable(text),
    issued_at: timestamp,
    expires_at: { ...timestamp, description: 'The call\'s deadline.' },
  })],
  RelayCallAnswered: ['The executor\'s tool.result for a recorded call: the answer its caller got (and every resend of its key gets).', all({
    request_id: text,
    result: { ...text, description: 'ok (the tool answered, whatever its status), or the protocol error code the executor sent.' },
    status: text,
    duration_ms: count,
    answer: { type: 'object', description: 'The answer as the caller got it.' },
    answered_at: timestamp,
  })],
};

export function relayEventSchemas(base: string): Record<string, JsonSchema> {
  return payloadSchemas(base, PAYLOADS);
}
