import type { JsonSchema } from '../catalog/operation-spec';
import { PROTOCOL_METHODS, PROTOCOL_RESULT_SCHEMA, PROTOCOL_VERSION } from '../protocol-methods/protocol-methods';
import { wireMethods } from '../protocol-methods/wire-methods';
import { WORKSPACE_METHODS } from '../protocol-methods/workspace-methods';
import { schemaToType } from './schema-to-type';

export const TYPESCRIPT_PROTOCOL_PATH = 'clients/typescript/palimpsest-protocol.ts';

const payloadOf = (result: JsonSchema): JsonSchema => ((result.properties ?? {}) as Record<string, JsonSchema>).payload ?? {};

/**
 * clients/typescript/palimpsest-protocol.ts: the protocol methods beside the client's operations, the
 * protocol version it checks, and decodeAnswer, which reads any response as success, refusal or error.
 */
export function typescriptProtocolSource(): string {
  // A method without params takes none: Record<string, never> makes any argument a type error.
  const typeOfParams = (params: JsonSchema) => (Object.keys(params.properties ?? {}).length ? schemaToType(params, '  ', true) : 'Record<string, never>');
  const params = PROTOCOL_METHODS.map((m) => `  ${JSON.stringify(m.name)}: ${typeOfParams(m.params)};`);
  const payloads = PROTOCOL_METHODS.map((m) => `  ${JSON.stringify(m.name)}: ${schemaToType(payloadOf(m.result), '  ', true)};`);
  const success = wireMethods().map((m) => `  ${JSON.stringify(m.name)}: ${JSON.stringify(m.success)},`);
  return [
    '// Generated from the Palimpsest operation catalog by `npx palimpsest generate`. Do not edit by hand.',
    '// The protocol\'s own methods and answer decoding; pure: no I/O (the host owns `palimpsest serve`\'s streams).',
    "import { RESULT_STATUSES, encodeLine, type Method, type RpcError } from './palimpsest-client';",
    '',
    `export const PROTOCOL_VERSION = ${JSON.stringify(PROTOCOL_VERSION)};`,
    `export const PROTOCOL_RESULT_SCHEMA = ${JSON.stringify(PROTOCOL_RESULT_SCHEMA)};`,
    `export const PROTOCOL_METHODS = ${JSON.stringify(PROTOCOL_METHODS.map((m) => m.name))} as const;`,
    'export type ProtocolMethod = (typeof PROTOCOL_METHODS)[number];',
    '/** The image protocol\'s workspace methods: the operations that answer them, under their names. */',
    `export const WORKSPACE_METHODS = ${JSON.stringify(WORKSPACE_METHODS)} as const;`,
    'export type WorkspaceMethod = keyof typeof WORKSPACE_METHODS;',
    'export type AnyMethod = Method | ProtocolMethod | WorkspaceMethod;',
    '',
    '/** The params of each protocol method. */',
    'export interface ProtocolParams {',
    ...params,
    '}',
    '',
    '/** What each protocol method\'s success carries in its payload. */',
    'export interface ProtocolPayloads {',
    ...payloads,
    '}',
    '',
    'export type ProtocolResult<M extends ProtocolMethod> = { status: \'ok\'; schema: typeof PROTOCOL_RESULT_SCHEMA; protocol: typeof PROTOCOL_VERSION; payload: ProtocolPayloads[M] };',
    '',
    '/** The statuses that mean each method did what was asked; its other statuses are refusals. */',
    'export const SUCCESS_STATUSES: { readonly [M in AnyMethod]: readonly string[] } = {',
    ...success,
    '};',
    '',
    PROTOCOL_FUNCTIONS,
  ].join('\n');
}

const PROTOCOL_FUNCTIONS = `const isProtocolMethod = (value: unknown): value is ProtocolMethod => PROTOCOL_METHODS.some((m) => m === value);

/** One request line for a protocol method, ASCII only. */
export function encodeProtocolRequest<M extends ProtocolMethod>(id: number | string, method: M, params: ProtocolParams[M]): string {
  if (!isProtocolMethod(method)) throw new TypeError(\`unknown protocol method \${String(method)}\`);
  return encodeLine({ jsonrpc: '2.0', id, method, params });
}

/** A protocol method answered for another protocol version than this client's. */
export class ProtocolMismatch extends Error {
  constructor(readonly method: string, readonly found: unknown) {
    super(\`\${method} answered for \${String(found)}; this client speaks \${PROTOCOL_VERSION}\`);
  }
}

/** success: the method did what was asked; refusal: another of its statuses (a result, or error.data; code: its code or failure_reason); error: no answer. */
export type Answer =
  | { kind: 'success'; id: number | string | null; status: string; result: Record<string, unknown> }
  | { kind: 'refusal'; id: number | string | null; status: string; code?: string; result: Record<string, unknown> }
  | { kind: 'error'; id: number | string | null; error: RpcError };

const isWorkspaceMethod = (value: AnyMethod): value is WorkspaceMethod => Object.hasOwn(WORKSPACE_METHODS, value);
const statusesOf = (method: AnyMethod): readonly string[] =>
  isProtocolMethod(method) ? ['ok', 'invalid_argument'] : RESULT_STATUSES[isWorkspaceMethod(method) ? WORKSPACE_METHODS[method] : method];
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A refusal's code: its code, else its failure_reason (a recorded rejection names why by that). */
function refusalCode(result: Record<string, unknown>): { code?: string } {
  const code = result.code ?? result.failure_reason;
  return typeof code === 'string' ? { code } : {};
}

/** Reads one response line; method: the request's (needed to read a result, not an error). Checks a protocol method's version. */
export function decodeAnswer(line: string, method?: AnyMethod): Answer {
  const msg: unknown = JSON.parse(line);
  if (!isObject(msg) || msg.jsonrpc !== '2.0') throw new TypeError('not a JSON-RPC 2.0 response');
  const id = typeof msg.id === 'number' || typeof msg.id === 'string' ? msg.id : null;
  if (isObject(msg.error)) {
    const { code, message, data } = msg.error;
    if (typeof code !== 'number' || typeof message !== 'string') throw new TypeError('error without a code and a message');
    if (method && isObject(data) && typeof data.status === 'string' && statusesOf(method).includes(data.status)) {
      return { kind: 'refusal', id, status: data.status, ...refusalCode(data), result: data };
    }
    return { kind: 'error', id, error: { code, message, ...(isObject(data) ? { data } : {}) } };
  }
  const result = msg.result;
  if (!isObject(result) || typeof result.status !== 'string') throw new TypeError('a result is an object with a status');
  if (!method) throw new TypeError('a result is read for the method that was called');
  if (SUCCESS_STATUSES[method].includes(result.status)) {
    if (isProtocolMethod(method) && (result.protocol !== PROTOCOL_VERSION || result.schema !== PROTOCOL_RESULT_SCHEMA)) throw new ProtocolMismatch(method, result.protocol);
    return { kind: 'success', id, status: result.status, result };
  }
  if (statusesOf(method).includes(result.status)) {
    return { kind: 'refusal', id, status: result.status, ...refusalCode(result), result };
  }
  throw new TypeError(\`\${method} never answers status \${result.status}\`);
}
`;
