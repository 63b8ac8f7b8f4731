import { CATALOG } from '../catalog/catalog';
import type { JsonSchema } from '../catalog/operation-spec';
import { NEXT_ACTION_SCHEMA, REFUSAL_SCHEMA, statusesOf, TRUNCATED_FIELDS_SCHEMA } from '../catalog/refusal-schema';
import { answerIndex, answerModules, pascal } from './answer-type-files';
import { schemaToType } from './schema-to-type';

const DIR = 'clients/typescript';
const HEADER = '// Generated from the Palimpsest operation catalog by `npx palimpsest generate`. Do not edit by hand.';
/** Lines of one generated params module (under the 450-line cap, with room for operations added meanwhile). */
const MODULE_LINES = 360;

/**
 * clients/typescript/: a standalone client (it imports nothing but its own modules), generated from
 * the catalog: each operation's params and answers typed from the same schemas as the protocol's own
 * types, the JSON-RPC helpers, and PalimpsestClient, whose call(method, params) answers that method's
 * Result.
 */
export function typescriptClientFiles(): Map<string, string> {
  const answers = answerModules({ header: HEADER, parts: 'palimpsest-answer-parts', group: (n) => `palimpsest-answers-${n}` });
  const files = new Map<string, string>();
  for (const [module, text] of answers.files) files.set(`${DIR}/${module}.ts`, text);
  const doc = 'What a success of each method carries, field by field.';
  files.set(`${DIR}/palimpsest-answers.ts`, [HEADER, ...answerIndex(answers, 'AnswersByMethod', doc), ...refusalTypes()].join('\n'));
  for (const [module, text] of paramsModules()) files.set(`${DIR}/${module}.ts`, text);
  files.set(`${DIR}/palimpsest-client.ts`, clientModule());
  return files;
}

/** Each method's params type, packed in catalog order into modules, and their index declaring ParamsByMethod. */
function paramsModules(): Map<string, string> {
  const blocks = CATALOG.map((op) => [
    `/** ${op.title}: ${op.description.replace(/\*\//g, '*\\/')} */`,
    `export type ${pascal(op.name)}Params = ${schemaToType(op.params)};`,
    '',
  ].join('\n'));
  const modules = new Map<string, string>();
  let current: string[] = [];
  let size = 0;
  const flush = () => {
    if (current.length) modules.set(`palimpsest-params-${modules.size + 1}`, [HEADER, '', ...current].join('\n'));
    current = [];
    size = 2;
  };
  for (const block of blocks) {
    const lines = block.split('\n').length;
    if (size + lines > MODULE_LINES) flush();
    current.push(block);
    size += lines;
  }
  flush();
  const index = [HEADER];
  for (const module of modules.keys()) index.push(`export type * from './${module}';`);
  let n = 0;
  for (const [module, text] of modules) {
    const names = CATALOG.filter((op) => text.includes(`export type ${pascal(op.name)}Params =`)).map((op) => `${pascal(op.name)}Params`);
    index.splice(1 + n++, 0, `import type { ${names.join(', ')} } from './${module}';`);
  }
  index.push('', '/** The params of each method, as its params schema describes them. */', 'export interface ParamsByMethod {');
  for (const op of CATALOG) index.push(`  ${op.name}: ${pascal(op.name)}Params;`);
  index.push('}', '');
  modules.set('palimpsest-params', index.join('\n'));
  return modules;
}

/** Refusal, NextAction and the notes any answer may carry, from the refusal schema the protocol validates with. */
function refusalTypes(): string[] {
  const { status: _status, ...fields } = REFUSAL_SCHEMA.properties as Record<string, JsonSchema>;
  const details: JsonSchema = { type: 'object', properties: fields };
  const named = new Map<JsonSchema, string>([[NEXT_ACTION_SCHEMA, 'NextAction'], [TRUNCATED_FIELDS_SCHEMA, 'TruncatedFields']]);
  return [
    "import type { Method } from './palimpsest-client';",
    "import type { ParamsByMethod } from './palimpsest-params';",
    '',
    '/** A call to make next: a method and its complete params. */',
    'export type NextAction = { [M in Method]: { operation: M; reason: string; params: ParamsByMethod[M] } }[Method];',
    '',
    '/** What was cut from an answer to keep it within its byte budget. */',
    `export type TruncatedFields = ${schemaToType(TRUNCATED_FIELDS_SCHEMA, '', true)};`,
    '',
    '/** What any answer may carry beside its fields: what was cut from it, and the calls to make next. */',
    'export type AnswerNotes = { result_truncated?: TruncatedFields; next_actions?: NextAction[] };',
    '',
    '/** What a refusal may carry beside its status: its code, why, what to do next, and the details it names. */',
    `export type RefusalFields = ${schemaToType(details, '', true, named)};`,
    '',
    '/** An answer other than a success: one of the statuses of its result schema that a success does not answer with. */',
    'export type Refusal<S extends string = string> = { status: S } & RefusalFields;',
    '',
  ];
}

function clientModule(): string {
  const statuses = CATALOG.map((op) => `  ${op.name}: ${JSON.stringify(statusesOf(op.result))},`);
  const lines = [
    HEADER,
    '// Standalone: the JSON-RPC helpers, and a client whose call(method, params) answers that method\'s typed Result.',
    '// The host owns the streams (`palimpsest serve` over stdin and stdout, one request per line).',
    "import type { AnswerNotes, AnswersByMethod, Refusal } from './palimpsest-answers';",
    "import type { ParamsByMethod } from './palimpsest-params';",
    '',
    "export type * from './palimpsest-answers';",
    "export type * from './palimpsest-params';",
    '',
    "export const JSONRPC_VERSION = '2.0';",
    `export const METHODS = ${JSON.stringify(CATALOG.map((op) => op.name))} as const;`,
    'export type Method = (typeof METHODS)[number];',
    `export const READ_ONLY_METHODS: readonly Method[] = ${JSON.stringify(CATALOG.filter((o) => o.readOnly).map((o) => o.name))};`,
    '',
    '/** Every status each method answers with (its result schema). */',
    'export const RESULT_STATUSES = {',
    ...statuses,
    '} as const satisfies { readonly [M in Method]: readonly string[] };',
    'export type ResultStatus<M extends Method> = (typeof RESULT_STATUSES)[M][number];',
    '',
    '/** The answer of method M: its success, typed field by field, or one of its refusals. */',
    'export type Result<M extends Method = Method> = { [K in M]: (AnswersByMethod[K] & AnswerNotes) | Refusal<Exclude<ResultStatus<K>, AnswersByMethod[K][\'status\']>> }[M];',
    '',
    'export interface Request<M extends Method> { jsonrpc: \'2.0\'; id: number | string; method: M; params: ParamsByMethod[M] }',
    'export interface RpcError { code: number; message: string; data?: unknown }',
    'export type Response<M extends Method = Method> =',
    '  | { ok: true; id: number | string; result: Result<M> }',
    '  | { ok: false; id: number | string | null; error: RpcError };',
    '',
    'const isMethod = (value: unknown): value is Method => METHODS.some((m) => m === value);',
    '',
    'export function request<M extends Method>(id: number | string, method: M, params: ParamsByMethod[M]): Request<M> {',
    '  if (!isMethod(method)) throw new TypeError(`unknown method ${String(method)}`);',
    "  return { jsonrpc: '2.0', id, method, params };",
    '}',
    '',
    '/** One NDJSON line for `palimpsest serve`: ASCII-escaped so no line separator can split it. */',
    'export function encodeLine(message: object): string {',
    '  return `${JSON.stringify(message).replace(/[\\u0080-\\uffff]/g, (c) => `\\\\u${c.charCodeAt(0).toString(16).padStart(4, \'0\')}`)}\\n`;',
    '}',
    '',
    'export function encodeRequest<M extends Method>(req: Request<M>): string {',
    '  return encodeLine(req);',
    '}',
    '',
    '/** A result of method M (or of any method): an object whose status is one M answers with. */',
    'export function isResultOf<M extends Method>(method: M | undefined, value: unknown): value is Result<M> {',
    "  if (typeof value !== 'object' || value === null || !('status' in value)) return false;",
    '  const status = value.status;',
    '  const statuses: readonly string[] = method === undefined ? Object.values(RESULT_STATUSES).flat() : RESULT_STATUSES[method];',
    "  return typeof status === 'string' && statuses.includes(status);",
    '}',
    '',
    '/** A response line; `method`, the request\'s, types its result (checked: a status the method never answers with is refused). */',
    'export function decodeResponse<M extends Method = Method>(line: string, method?: M): Response<M> {',
    '  const msg: unknown = JSON.parse(line);',
    "  if (typeof msg !== 'object' || msg === null || !('jsonrpc' in msg) || msg.jsonrpc !== '2.0') throw new TypeError('not a JSON-RPC 2.0 response');",
    "  const id = 'id' in msg && (typeof msg.id === 'number' || typeof msg.id === 'string') ? msg.id : null;",
    "  if ('error' in msg && isRpcError(msg.error)) return { ok: false, id, error: msg.error };",
    "  const result = 'result' in msg ? msg.result : undefined;",
    "  if (!isResultOf(method, result) || id === null) throw new TypeError('result without a status of the method');",
    '  return { ok: true, id, result };',
    '}',
    '',
    'function isRpcError(value: unknown): value is RpcError {',
    "  return typeof value === 'object' && value !== null && 'code' in value && typeof value.code === 'number' && 'message' in value && typeof value.message === 'string';",
    '}',
    '',
    '/** Sends one request line and resolves with its response line. */',
    'export type Transport = (line: string) => Promise<string>;',
    '',
    '/** A JSON-RPC error answered instead of a result (unknown method, a frame over its limit, an internal error). */',
    'export class PalimpsestRpcError extends Error {',
    '  constructor(readonly error: RpcError) {',
    '    super(error.message);',
    '  }',
    '}',
    '',
    '/** Calls methods over a transport: call(method, params) answers that method\'s Result, typed by status. */',
    'export class PalimpsestClient {',
    '  private nextId = 1;',
    '',
    '  constructor(private readonly transport: Transport) {}',
    '',
    '  async call<M extends Method>(method: M, params: ParamsByMethod[M]): Promise<Result<M>> {',
    '    const line = await this.transport(encodeRequest(request(this.nextId++, method, params)));',
    '    const response = decodeResponse(line, method);',
    '    if (!response.ok) throw new PalimpsestRpcError(response.error);',
    '    return response.result;',
    '  }',
    '}',
    '',
  ];
  return lines.join('\n');
}
