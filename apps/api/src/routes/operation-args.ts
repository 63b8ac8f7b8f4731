import type { JsonSchema, OperationSpec } from '@palimpsest/protocol/catalog/operation-spec';
import { invalidArgumentError } from '../errors/api-error';
import { guardArgumentOf, keyArgumentOf, pathArgumentOf, specOf, type OperationRoute } from './route-table';

/**
 * One request → one operation's arguments: the path's target id, the query (GET) or the JSON body
 * (POST), and the If-Match / Idempotency-Key headers. Only the transport's own ambiguities are
 * refused here; every argument rule stays with the catalog's admission, which dispatch() applies.
 */
export interface RequestParts {
  pathId?: string;
  query: Record<string, unknown>;
  body: unknown;
  ifMatch?: string;
  /** Each Idempotency-Key header as sent (a list when there are several: Node would join them with ", "). */
  idempotencyKey?: string | readonly string[];
}

type Args = Record<string, unknown>;

export function operationArgs(route: OperationRoute, parts: RequestParts): Args {
  const spec = specOf(route.operation);
  const args = route.method === 'GET' ? queryArgs(spec, parts.query) : bodyArgs(spec, parts);
  const inPath = pathArgumentOf(route);
  if (inPath) bindPathArgument(spec, args, inPath, parts.pathId ?? '');
  // On reads, client_request_id is a filter and there is nothing to guard: the headers mean nothing there.
  if (route.method === 'GET') return args;
  if (parts.ifMatch !== undefined) bindVersionGuard(spec, args, parts.ifMatch);
  if (parts.idempotencyKey !== undefined) bindRequestKey(spec, args, parts.idempotencyKey);
  return args;
}

function propertySchema(spec: OperationSpec, name: string): JsonSchema | undefined {
  return (spec.params.properties as Record<string, JsonSchema> | undefined)?.[name];
}

/** The JSON types a property admits, read from its `type` or, for a bare enum, from its values. */
function typesOf(schema: JsonSchema): Set<string> {
  if (Array.isArray(schema.type)) return new Set(schema.type as string[]);
  if (typeof schema.type === 'string') return new Set([schema.type]);
  if (Array.isArray(schema.enum)) return new Set((schema.enum as unknown[]).map((v) => (v === null ? 'null' : typeof v)));
  return new Set();
}

/**
 * Query strings carry text only: a value becomes a number or boolean when the catalog's schema for
 * that argument admits one and the text spells it exactly, an object when it admits one and the text is JSON. Anything else is passed on unchanged,
 * so admission reports it with its usual code.
 */
function parsedObject(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export function coerceQueryValue(schema: JsonSchema | undefined, raw: unknown): unknown {
  if (typeof raw !== 'string' || !schema) return raw;
  const types = typesOf(schema);
  if ((types.has('integer') || types.has('number')) && /^-?\d+$/.test(raw)) {
    const n = Number(raw);
    return Number.isSafeInteger(n) ? n : raw;
  }
  if (types.has('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  if (types.has('null') && !types.has('string') && raw === 'null') return null;
  if (types.has('array')) return raw.split(','); // include=a,b (repeated keys arrive as an array already)
  if (types.has('object') && raw.startsWith('{')) return parsedObject(raw); // as_of={"version":3}
  return raw;
}

function queryArgs(spec: OperationSpec, query: Record<string, unknown>): Args {
  const args: Args = {};
  for (const [name, raw] of Object.entries(query)) args[name] = coerceQueryValue(propertySchema(spec, name), raw);
  return args;
}

function bodyArgs(spec: OperationSpec, parts: RequestParts): Args {
  const names = Object.keys(parts.query);
  if (names.length) {
    throw invalidArgumentError(spec.name, 'unexpected_query', `This route takes its arguments in the JSON body, not the query string (got ${names.join(', ')}).`, {
      unknown_arguments: names,
    });
  }
  if (parts.body === undefined) return {};
  if (parts.body === null || typeof parts.body !== 'object' || Array.isArray(parts.body)) {
    throw invalidArgumentError(spec.name, 'invalid_params', 'The request body must be a JSON object of arguments.');
  }
  return { ...(parts.body as Args) };
}

function bindPathArgument(spec: OperationSpec, args: Args, name: string, pathId: string): void {
  if (name in args && args[name] !== pathId) {
    throw invalidArgumentError(spec.name, `${name}_mismatch`, `${name} in the request differs from the id in the path; send it in the path only.`, {
      argument: name,
    });
  }
  args[name] = pathId;
}

const STRONG_VERSION_TAG = /^"(\d{1,15})"$/;

/** If-Match: "<version>" (the ETag of a read) becomes the version guard; `*` adds no guard. */
function bindVersionGuard(spec: OperationSpec, args: Args, header: string): void {
  const guard = guardArgumentOf(spec);
  if (!guard) {
    throw invalidArgumentError(spec.name, 'if_match_not_supported', `${spec.name} takes no version guard; drop the If-Match header.`);
  }
  const value = header.trim();
  if (value === '*') return;
  const match = STRONG_VERSION_TAG.exec(value);
  if (!match) {
    throw invalidArgumentError(
      spec.name,
      'invalid_if_match',
      'If-Match must be one strong entity tag holding the target version, as a read\'s ETag gives it (If-Match: "3").',
      { argument: 'If-Match' },
    );
  }
  const version = Number(match[1]);
  const explicit = args[guard];
  if (explicit !== undefined && explicit !== null && explicit !== version) {
    throw invalidArgumentError(spec.name, 'guard_conflict', `If-Match names version ${version} but ${guard} is ${JSON.stringify(explicit)}; send one guard.`, {
      argument: guard,
    });
  }
  args[guard] = version;
}

/** Idempotency-Key becomes the request key, client_request_id or request_id (the same key in both places is accepted). */
function bindRequestKey(spec: OperationSpec, args: Args, header: string | readonly string[]): void {
  const name = keyArgumentOf(spec);
  if (!name) {
    throw invalidArgumentError(spec.name, 'idempotency_key_not_supported', `${spec.name} takes no request key; drop the Idempotency-Key header.`);
  }
  const keys = typeof header === 'string' ? [header] : header;
  // Joined, two headers would make a third key ("a, b") that neither was meant to be.
  if (keys.length !== 1) {
    throw invalidArgumentError(spec.name, 'duplicate_idempotency_key', `Send one Idempotency-Key header; this request has ${keys.length}.`, {
      argument: 'Idempotency-Key',
    });
  }
  const key = keys[0]!;
  const explicit = args[name];
  if (explicit !== undefined && explicit !== null && explicit !== key) {
    throw invalidArgumentError(spec.name, 'idempotency_key_conflict', `Idempotency-Key differs from ${name} in the body; send one key.`, { argument: name });
  }
  args[name] = key;
}
