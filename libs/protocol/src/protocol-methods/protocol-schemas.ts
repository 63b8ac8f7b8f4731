import { CATALOG } from '../catalog/catalog';
import type { JsonSchema } from '../catalog/operation-spec';
import { MAX_ID_UTF8_BYTES } from '../codec/request-id';
import { SCHEMA_BASE } from '../publish/event-schemas';
import { publishOperationSchema } from '../publish/operation-schemas';
import { PROTOCOL_METHODS } from './protocol-methods';
import { byName } from './wire-methods';
import { workspaceMethodOperations } from './workspace-methods';

export const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * An id as the codec admits it. `x-max-utf8-bytes` says what a string's maxLength (code points) cannot:
 * its UTF-8 length. Integer tokens past 2^53 and duplicate keys are the strict codec's to refuse.
 */
const ID_SCHEMA: JsonSchema = {
  oneOf: [
    { type: 'integer', minimum: 0, description: 'At most 2^64-1, echoed as the same token.' },
    { type: 'string', minLength: 1, 'x-max-utf8-bytes': MAX_ID_UTF8_BYTES, pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f]+$' },
  ],
};

const RESPONSE_ID: JsonSchema = { oneOf: [ID_SCHEMA, { type: 'null', description: 'A frame that could not be read: no id to echo.' }] };

/** One method's request envelope: closed, method fixed, params its schema (absent means {}). */
function requestSchema(name: string, params: JsonSchema): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['jsonrpc', 'id', 'method'],
    properties: { jsonrpc: { const: '2.0' }, id: ID_SCHEMA, method: { const: name }, params },
  };
}

const SUCCESS_ENVELOPE: JsonSchema = {
  $schema: DIALECT,
  $id: `${SCHEMA_BASE}/protocol/success-envelope.v1.json`,
  type: 'object',
  additionalProperties: false,
  required: ['jsonrpc', 'id', 'result'],
  properties: { jsonrpc: { const: '2.0' }, id: ID_SCHEMA, result: { type: 'object', required: ['status'], properties: { status: { type: 'string' } } } },
};

const ERROR_ENVELOPE: JsonSchema = {
  $schema: DIALECT,
  $id: `${SCHEMA_BASE}/protocol/error-envelope.v1.json`,
  type: 'object',
  additionalProperties: false,
  required: ['jsonrpc', 'id', 'error'],
  properties: {
    jsonrpc: { const: '2.0' },
    id: RESPONSE_ID,
    error: {
      type: 'object',
      additionalProperties: false,
      required: ['code', 'message'],
      properties: {
        code: { enum: [-32700, -32600, -32601, -32602, -32000, -32001, -32603] },
        message: { type: 'string' },
        data: { type: 'object', description: 'data.code names the cause; a refusal of the operation carries its whole result (status, code, failure_detail).' },
      },
    },
  },
};

/**
 * protocol/schemas: every method's request envelope, generated from the catalog, and the success and
 * error envelopes. An operation's result is referenced by its published schema's id (schemas/operations),
 * not restated; a protocol method's own result is given whole.
 */
export function protocolSchemas(): Record<string, unknown> {
  const methods: Record<string, { request: JsonSchema; result: JsonSchema }> = {};
  const entries = [
    ...PROTOCOL_METHODS.map((m) => [m.name, requestSchema(m.name, m.params), m.result] as const),
    ...CATALOG.map((op) => [op.name, requestSchema(op.name, op.params), { $ref: String(publishOperationSchema(op, 'result').$id) }] as const),
    ...workspaceMethodOperations().map(([alias, op]) => [alias, requestSchema(alias, op.params), { $ref: String(publishOperationSchema(op, 'result').$id) }] as const),
  ].sort((a, b) => byName(a[0], b[0]));
  for (const [name, request, result] of entries) methods[name] = { request, result };
  return { dialect: DIALECT, methods, success: SUCCESS_ENVELOPE, error: ERROR_ENVELOPE };
}
