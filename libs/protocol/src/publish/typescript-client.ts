import { CATALOG } from '../catalog/catalog';
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

const pascal = (name: string) =>
  name.replace(/^palimpsest_/, '').replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase());

/** clients/typescript/palimpsest-client.ts: pure request/result helpers, generated from the catalog. */
export function renderTypescriptClient(): string {
  const out: string[] = [
    '// Generated from the Palimpsest operation catalog by `npx palimpsest generate`. Do not edit by hand.',
    '// Pure helpers: they encode JSON-RPC requests and decode responses; the host owns the streams.',
    '',
    "export const JSONRPC_VERSION = '2.0';",
    `export const METHODS = ${JSON.stringify(CATALOG.map((op) => op.name))} as const;`,
    'export type Method = (typeof METHODS)[number];',
    `export const READ_ONLY_METHODS: readonly Method[] = ${JSON.stringify(CATALOG.filter((o) => o.readOnly).map((o) => o.name))};`,
    '',
  ];
  for (const op of CATALOG) {
    out.push(`/** ${op.title}: ${op.description.replace(/\*\//g, '*\\/')} */`);
    out.push(`export type ${pascal(op.name)}Params = ${schemaToType(op.params)};`, '');
  }
  out.push('export interface ParamsByMethod {');
  for (const op of CATALOG) out.push(`  ${op.name}: ${pascal(op.name)}Params;`);
  out.push('}', '');
  out.push(
    'export interface Request<M extends Method> { jsonrpc: \'2.0\'; id: number | string; method: M; params: ParamsByMethod[M] }',
    'export type Result = { status: string; [field: string]: unknown };',
    'export type Response =',
    '  | { ok: true; id: number | string; result: Result }',
    '  | { ok: false; id: number | string | null; error: { code: number; message: string; data?: unknown } };',
    '',
    'export function request<M extends Method>(id: number | string, method: M, params: ParamsByMethod[M]): Request<M> {',
    '  if (!METHODS.includes(method)) throw new TypeError(`unknown method ${String(method)}`);',
    "  return { jsonrpc: '2.0', id, method, params };",
    '}',
    '',
    '/** One NDJSON line for `palimpsest serve`: ASCII-escaped so no line separator can split it. */',
    'export function encodeRequest<M extends Method>(req: Request<M>): string {',
    '  return `${JSON.stringify(req).replace(/[\\u0080-\\uffff]/g, (c) => `\\\\u${c.charCodeAt(0).toString(16).padStart(4, \'0\')}`)}\\n`;',
    '}',
    '',
    'export function decodeResponse(line: string): Response {',
    '  const msg = JSON.parse(line) as Record<string, any>;',
    "  if (msg.jsonrpc !== '2.0') throw new TypeError('not a JSON-RPC 2.0 response');",
    "  if (msg.error) return { ok: false, id: msg.id ?? null, error: msg.error };",
    "  if (!msg.result || typeof msg.result.status !== 'string') throw new TypeError('result without status');",
    '  return { ok: true, id: msg.id, result: msg.result };',
    '}',
  );
  return `${out.join('\n')}\n`;
}
