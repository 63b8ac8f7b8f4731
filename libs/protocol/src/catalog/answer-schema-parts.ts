import type { JsonSchema } from './operation-spec';

/** The builders and shared fields of the answer schemas (answer-schemas.ts and the files beside it). */

export const str = (description?: string): JsonSchema => ({ type: 'string', ...(description ? { description } : {}) });
export const int = (description?: string): JsonSchema => ({ type: 'integer', ...(description ? { description } : {}) });
export const bool = (description?: string): JsonSchema => ({ type: 'boolean', ...(description ? { description } : {}) });
export const nullable = (schema: JsonSchema): JsonSchema => ({ ...schema, type: [schema.type as string, 'null'] });
export const sha256 = (description: string): JsonSchema => ({ type: 'string', pattern: '^[0-9a-f]{64}$', description });
export const array = (items: JsonSchema, description?: string): JsonSchema => ({ type: 'array', items, ...(description ? { description } : {}) });
export const anyObject: JsonSchema = { type: 'object' };

/** An open object whose every listed property is required unless named in `optional`. */
export function object(properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema {
  return { type: 'object', required: Object.keys(properties).filter((k) => !optional.includes(k)), properties };
}

export const targetId = str('Target UUID.');
export const version = int('The target version (0 at creation, +1 per accepted change).');
export const currentHash = sha256('SHA-256 of the canonical LF text at that version.');

export const logSequence = int('Global position of the write: pass as min_position to read it back from an asynchronous read model.');
