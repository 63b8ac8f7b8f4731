import { SYMBOL_KINDS, STRUCTURE_LANGUAGES } from '@palimpsest/core/structure/structure.port';
import type { JsonSchema } from '../catalog/operation-spec';

/** JSON Schemas (2020-12) of the observation events of the target stream (palimpsest_observe_scope), schema version 1. */
export function observationEventSchemas(base: string): Record<string, JsonSchema> {
  const id = (name: string) => `${base}/events/${name}.v1.json`;
  const uuid = { type: 'string', format: 'uuid' };
  const sha256 = { type: 'string', pattern: '^[0-9a-f]{64}$' };
  const offset = { type: 'integer', minimum: 0 };
  const nullableString = { anyOf: [{ type: 'string' }, { type: 'null' }] };
  const baseProperties: Record<string, JsonSchema> = {
    target_id: uuid,
    editing_cycle_id: { ...uuid, description: 'The editing cycle the observation belongs to: a save closes it.' },
    target_version: { type: 'integer', minimum: 0 },
    target_hash: sha256,
    language: { enum: [...STRUCTURE_LANGUAGES] },
    engine: { type: 'string', minLength: 1, description: 'The pinned engine and parser versions that named the scope(s).' },
    observed_at: { type: 'string', format: 'date-time' },
  };
  const scopeProperties: Record<string, JsonSchema> = {
    observation_id: uuid,
    selector: {
      type: 'object',
      additionalProperties: false,
      required: ['symbol_name', 'kind'],
      properties: { symbol_name: { type: 'string', minLength: 1 }, kind: { anyOf: [{ enum: [...SYMBOL_KINDS] }, { type: 'null' }] } },
    },
    symbol: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'kind', 'parent'],
      properties: { name: { type: 'string' }, kind: { enum: [...SYMBOL_KINDS] }, parent: nullableString },
    },
    scope_start: { ...offset, description: 'Code points into the canonical text of target_version.' },
    scope_end: { ...offset, description: 'Exclusive.' },
    observed_scope_hash: { ...sha256, description: 'SHA-256 of the scope text.' },
  };
  const scope = { type: 'object', additionalProperties: false, required: [...Object.keys(scopeProperties), 'ordinal'], properties: { ...scopeProperties, ordinal: { type: 'integer', minimum: 1, maximum: 32 } } };
  return {
    ScopeObserved: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: id('scope-observed'),
      title: 'ScopeObserved',
      description: 'One structural scope was selected exactly (palimpsest_observe_scope): the observation an observed submission is bound to. The text is unchanged by this event.',
      type: 'object',
      additionalProperties: false,
      required: [...Object.keys(baseProperties), ...Object.keys(scopeProperties)],
      properties: { ...baseProperties, ...scopeProperties },
    },
    BundleObserved: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: id('bundle-observed'),
      title: 'BundleObserved',
      description: '1–32 disjoint structural scopes selected from one snapshot and one engine pass (palimpsest_observe_scope with selections), in selection order. The text is unchanged by this event.',
      type: 'object',
      additionalProperties: false,
      required: [...Object.keys(baseProperties), 'bundle_id', 'scopes'],
      properties: { ...baseProperties, bundle_id: uuid, scopes: { type: 'array', minItems: 1, maxItems: 32, items: scope } },
    },
  };
}
