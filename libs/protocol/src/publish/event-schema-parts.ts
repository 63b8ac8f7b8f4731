import type { JsonSchema } from '../catalog/operation-spec';

/** The primitives every aggregate's event payload schemas are written with. */
export const uuid = { type: 'string', format: 'uuid' };
export const sha256 = { type: 'string', pattern: '^[0-9a-f]{64}$' };
export const timestamp = { type: 'string', format: 'date-time' };
export const text = { type: 'string' };
export const count = { type: 'integer', minimum: 0 };
export const nullable = (schema: JsonSchema) => ({ anyOf: [schema, { type: 'null' }] });

/** A closed object whose every property is required. */
export const all = (properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});
