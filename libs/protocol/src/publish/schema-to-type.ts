import type { JsonSchema } from '../catalog/operation-spec';

/** Schemas (by identity) written as a named type instead of inline: a part several answers share. */
export type SchemaNames = ReadonlyMap<JsonSchema, string>;
const NO_NAMES: SchemaNames = new Map();

/**
 * JSON Schema (the catalog's subset) → a TypeScript type expression. `closed`: no index signature for
 * open objects (a result type names what it promises; values with more fields still fit).
 */
export function schemaToType(schema: JsonSchema, indent = '', closed = false, named: SchemaNames = NO_NAMES): string {
  const name = named.get(schema);
  if (name) return name;
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (Array.isArray(schema.oneOf)) return (schema.oneOf as JsonSchema[]).map((s) => schemaToType(s, indent, closed, named)).join(' | ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [String(schema.type)] : [];
  if (types.length === 0) return 'unknown';
  return types.map((t) => single(t, schema, indent, closed, named)).join(' | ');
}

function single(type: string, schema: JsonSchema, indent: string, closed: boolean, named: SchemaNames): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `Array<${schemaToType((schema.items as JsonSchema) ?? {}, indent, closed, named)}>`;
    case 'object':
      return objectType(schema, indent, closed, named);
    default:
      return 'unknown';
  }
}

function objectType(schema: JsonSchema, indent: string, closed: boolean, named: SchemaNames): string {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const inner = `${indent}  `;
  const fields = Object.entries(props).map(
    ([name, s]) => `${inner}${name}${required.has(name) ? '' : '?'}: ${schemaToType(s, inner, closed, named)};`,
  );
  if (schema.additionalProperties !== false && !closed) fields.push(`${inner}[extra: string]: unknown;`);
  if (fields.length === 0 && closed) return `Record<string, ${valueType(schema.additionalProperties, indent)}>`;
  if (fields.length === 0) return 'Record<string, never>';
  return `{\n${fields.join('\n')}\n${indent}}`;
}

/** The values of an object without listed properties: any JSON value, or what additionalProperties says. */
function valueType(additional: unknown, indent: string): string {
  return typeof additional === 'object' && additional !== null ? schemaToType(additional as JsonSchema, indent, true) : 'unknown';
}
