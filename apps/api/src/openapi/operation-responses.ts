import type { OperationName } from '@palimpsest/protocol/catalog/catalog';
import { EXAMPLE_TARGET_ID } from '@palimpsest/protocol/catalog/fragments';
import type { JsonSchema } from '@palimpsest/protocol/catalog/operation-spec';
import { documentedStatuses, STATUS_MEANINGS } from '../routes/documented-statuses';
import { pathArgumentOf, type GatewayRoute, type OperationRoute } from '../routes/route-table';
import { answerExamplesFor, answerSchemaName, errorExampleName, errorExamplesFor, exampleRef, gatewayExampleName, ref } from './openapi-components';
import { EXAMPLE_CANDIDATE_ID, exampleOf } from './example-requests';
import { GATEWAY_ANSWERS } from './gateway-answers';
import { OPENAPI_EXAMPLES } from './openapi-examples';

/**
 * The responses and request bodies of the document's routes, as plain OpenAPI objects: every status a
 * route answers with, a success carrying the operation's answer schema and its real example, every
 * error the ErrorBody with examples of the codes the gateway sends with that status.
 */

export interface MediaObject {
  schema: JsonSchema;
  examples?: Record<string, { $ref: string }>;
  example?: unknown;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
  content?: Record<string, MediaObject>;
}

const JSON_TYPE = 'application/json';

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before resending.', schema: { type: 'integer' } } };
const WWW_AUTHENTICATE = { 'WWW-Authenticate': { description: 'The bearer challenge (RFC 6750).', schema: { type: 'string' } } };

function errorResponse(status: number, operation: OperationName | null): ResponseObject {
  const examples = errorExamplesFor(status, operation);
  const headers = status === 429 || status === 503 ? RETRY_AFTER : status === 401 || status === 403 ? WWW_AUTHENTICATE : undefined;
  const media: MediaObject = { schema: ref('ErrorBody') };
  if (examples.length) media.examples = Object.fromEntries(examples.map((run) => [run.name, exampleRef(errorExampleName(run))]));
  return { description: STATUS_MEANINGS[status] ?? '', ...(headers ? { headers } : {}), content: { [JSON_TYPE]: media } };
}

function successResponse(route: OperationRoute): ResponseObject {
  const headers: ResponseObject['headers'] = {};
  if (route.etag) headers.ETag = { description: 'The version read, quoted ("3"): send it back as If-None-Match (304) or If-Match (a guard).', schema: { type: 'string' } };
  if (route.success === 201 && !pathArgumentOf(route)) headers.Location = { description: 'The new target\'s route.', schema: { type: 'string' } };
  const media: MediaObject = { schema: ref(answerSchemaName(route.operation)) };
  const examples = answerExamplesFor(route.operation);
  if (examples.length) media.examples = Object.fromEntries(examples.map(([key, component]) => [key, exampleRef(component)]));
  return {
    description: STATUS_MEANINGS[route.success] ?? '',
    ...(Object.keys(headers).length ? { headers } : {}),
    content: { [JSON_TYPE]: media },
  };
}

/** Every documented status of an operation route, with its content. */
export function operationResponses(route: OperationRoute): Record<string, ResponseObject> {
  return Object.fromEntries(
    documentedStatuses(route).map((status) => {
      if (status === 304) return [String(status), { description: STATUS_MEANINGS[304]! }];
      if (status === route.success) return [String(status), successResponse(route)];
      return [String(status), errorResponse(status, route.operation)];
    }),
  );
}

/** Example arguments with the one the path carries taken out. */
function bodyValue(route: OperationRoute, params: Record<string, unknown>): Record<string, unknown> {
  const { [pathArgumentOf(route) ?? '']: _inPath, ...rest } = params;
  return rest;
}

/** A POST route's JSON body: required when the operation needs arguments beyond the path's. */
export function operationRequestBody(route: OperationRoute, schema: JsonSchema) {
  const required = ((schema.required as string[] | undefined) ?? []).length > 0;
  const requests = [
    ...(OPENAPI_EXAMPLES.operations[route.operation] ? [['example', OPENAPI_EXAMPLES.operations[route.operation]!] as const] : []),
    ...Object.entries(OPENAPI_EXAMPLES.alternates).filter(([, run]) => run.operation === route.operation).map(([key, run]) => [key.split('.').pop()!, run] as const),
  ];
  const examples = Object.fromEntries(requests.map(([key, run]) => [key, { summary: run.title, value: bodyValue(route, run.params) }]));
  return { required, content: { [JSON_TYPE]: { schema, ...(requests.length ? { examples } : {}) } } };
}

/** Example values of a GET route's query parameters and of the path's id. */
export function parameterExample(route: OperationRoute, name: string, location: string): unknown {
  if (location === 'path') return pathArgumentOf(route) === 'candidate' ? EXAMPLE_CANDIDATE_ID : EXAMPLE_TARGET_ID;
  return exampleOf(route.operation)?.params[name];
}

/** A gateway route's responses: its success as GATEWAY_ANSWERS says, its errors as ErrorBody. */
export function gatewayResponses(route: GatewayRoute, existing: Record<string, { description?: string }>): Record<string, ResponseObject> {
  const answer = GATEWAY_ANSWERS[route.name];
  return Object.fromEntries(
    route.statuses.map((status) => {
      const description = existing[String(status)]?.description || STATUS_MEANINGS[status] || '';
      if (status >= 400) {
        if (route.name === 'health' && status === 503) return [String(status), healthDown(description)];
        return [String(status), { ...errorResponse(status, null), description: STATUS_MEANINGS[status] ?? description }];
      }
      if (!answer) return [String(status), { description }];
      const media: MediaObject = { schema: answer.schema };
      if (answer.example !== undefined) media.example = answer.example;
      else if (route.name in OPENAPI_EXAMPLES.gateway) media.examples = { [route.name]: exampleRef(gatewayExampleName(route.name)) };
      return [String(status), { description, content: { [answer.mediaType]: media } }];
    }),
  );
}

/** /health's 503: the terminus report, its error also carrying the envelope's fields. */
function healthDown(description: string): ResponseObject {
  return {
    description,
    headers: RETRY_AFTER,
    content: { [JSON_TYPE]: { schema: { type: 'object', required: ['status', 'error'], properties: { status: { const: 'error' }, error: { type: 'object' } } } } },
  };
}

