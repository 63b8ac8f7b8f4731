import { defineOperation, type JsonSchema, type OperationSpec } from '../catalog/operation-spec';

/**
 * The JSON-lines protocol's own methods: what a client reads to discover a server before it calls an
 * operation. They describe the protocol and the catalog (every answer is derived from CATALOG and the
 * session's profile), read nothing of the project and write nothing, so every profile serves them.
 * Declared in the catalog's own shape: admission, schemas and generated clients treat them as methods.
 */

/** The protocol a generated client speaks; a protocol method's answer that names another is refused by the client. */
export const PROTOCOL_VERSION = 'palimpsest.json-lines.v1';
/** The `schema` of every protocol method's successful result. */
export const PROTOCOL_RESULT_SCHEMA = 'palimpsest.protocol-result.v1';
/** The languages protocol/client generates helpers in. */
export const CLIENT_LANGUAGES = ['typescript', 'python', 'rust'] as const;
export type ClientLanguage = (typeof CLIENT_LANGUAGES)[number];

const NO_PARAMS: JsonSchema = { type: 'object', additionalProperties: false, properties: {} };

/** A protocol method's result: status ok with the envelope (schema, protocol, payload), or an argument refusal. */
export function protocolResultSchema(payload: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['status'],
    properties: {
      status: { enum: ['ok', 'invalid_argument'] },
      schema: { const: PROTOCOL_RESULT_SCHEMA },
      protocol: { const: PROTOCOL_VERSION },
      payload,
    },
  };
}

const strings: JsonSchema = { type: 'array', items: { type: 'string' } };
const object = (properties: Record<string, JsonSchema>): JsonSchema => ({ type: 'object', required: Object.keys(properties), properties });

const method = <const N extends string>(name: N, title: string, description: string, params: JsonSchema, payload: JsonSchema, errors: string[] = []) =>
  defineOperation({ name, title, description, readOnly: true, params, admission: 'schema', result: protocolResultSchema(payload), errors, examples: [] });

export const PROTOCOL_METHODS = [
  method(
    'protocol/capabilities',
    'Protocol capabilities',
    'The session\'s exact capability (read_only or read_write) and profile, the method names it serves in sorted order, and the framing limits.',
    NO_PARAMS,
    object({ capability: { enum: ['read_only', 'read_write'] }, profile: { type: 'string' }, methods: strings, limits: { type: 'object' } }),
  ),
  method(
    'protocol/schemas',
    'Protocol schemas',
    'JSON Schema (draft 2020-12) of every method\'s request, generated from the catalog, and of the success and error response envelopes; operation results by their published schema id.',
    NO_PARAMS,
    object({ dialect: { type: 'string' }, methods: { type: 'object' }, success: { type: 'object' }, error: { type: 'object' } }),
  ),
  method(
    'protocol/instructions',
    'Protocol instructions',
    'How to work with this session, for this protocol version and this profile: what to call first, what the answers mean, what the profile allows.',
    NO_PARAMS,
    object({ profile: { type: 'string' }, capability: { enum: ['read_only', 'read_write'] }, instructions: strings }),
  ),
  method(
    'protocol/client',
    'Generated client',
    'The source of the generated request/result helpers in one language: they encode requests and decode answers, check the protocol version, and perform no I/O.',
    {
      type: 'object',
      additionalProperties: false,
      required: ['language'],
      properties: { language: { enum: [...CLIENT_LANGUAGES], description: 'typescript, python or rust.' } },
    },
    object({
      language: { enum: [...CLIENT_LANGUAGES] },
      files: { type: 'array', items: object({ path: { type: 'string' }, sha256: { type: 'string' }, content: { type: 'string' } }) },
    }),
    ['invalid_argument_value'],
  ),
  method(
    'query/catalog',
    'Query catalog',
    'The read operations this session serves: name, title, description, the params schema and the id of the result schema.',
    NO_PARAMS,
    object({ queries: { type: 'array', items: { type: 'object' } } }),
  ),
] as const satisfies readonly OperationSpec[];

export type ProtocolMethodName = (typeof PROTOCOL_METHODS)[number]['name'];

const BY_NAME: ReadonlyMap<string, OperationSpec<ProtocolMethodName>> = new Map(PROTOCOL_METHODS.map((m) => [m.name, m]));

export function findProtocolMethod(name: string): OperationSpec<ProtocolMethodName> | undefined {
  return BY_NAME.get(name);
}
