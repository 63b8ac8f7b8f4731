import type { JsonSchema } from '../catalog/operation-spec';

/** Published event schemas from `{ EventType: [description, payload schema] }`: one file each, `events/<event-type>.v1.json`. */
export function payloadSchemas(base: string, payloads: Record<string, [string, JsonSchema]>): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const [type, [description, schema]] of Object.entries(payloads)) {
    const file = type.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
    out[type] = { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: `${base}/events/${file}.v1.json`, title: type, description, ...schema };
  }
  return out;
}
