import { CATALOG, type OperationName } from '@palimpsest/protocol/catalog/catalog';
import { ENVELOPE_OPERATION_NAMES } from '@palimpsest/protocol/catalog/operations/candidates.operations';
import type { JsonSchema } from '@palimpsest/protocol/catalog/operation-spec';
import { ERROR_ENVELOPE_SCHEMA } from '../errors/error-envelope';
import { ANSWER_SCHEMAS } from '@palimpsest/protocol/catalog/answer-schemas';
import type { ErrorExampleRun } from './example-scenario';
import { APPROVAL_SCHEMA } from './gateway-answers';
import { OPENAPI_EXAMPLES } from './openapi-examples';

/**
 * components/schemas and components/examples of the document: each operation's catalog result
 * schema (`<operation>.result`, exactly as published in schemas/operations/) and its successful
 * answer (`<operation>.answer`: the result narrowed to what a success carries), the error envelope,
 * and the example answers of the example run. Routes $ref these, so each is written once.
 */

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
export const exampleRef = (name: string) => ({ $ref: `#/components/examples/${name}` });
export const resultSchemaName = (operation: OperationName) => `${operation}.result`;
export const answerSchemaName = (operation: OperationName) => `${operation}.answer`;

/** A next action as HTTP shows it: the operation and its complete arguments, plus the route to send them to. */
const NEXT_ACTION: JsonSchema = {
  type: 'object',
  required: ['operation', 'reason'],
  properties: {
    operation: { type: 'string', description: 'The catalog operation to call next.' },
    reason: { type: 'string', description: 'Why, for people.' },
    params: { type: 'object', description: 'Its arguments, to send as they are.' },
    method: { enum: ['GET', 'POST'], description: 'HTTP method of the operation\'s route.' },
    path: { type: 'string', description: 'The operation\'s route, with its id filled in.' },
  },
};

/** The envelope (apps/api/src/errors), its next actions as the shared NextAction. */
function errorEnvelope(): JsonSchema {
  const properties = ERROR_ENVELOPE_SCHEMA.properties as Record<string, JsonSchema>;
  return {
    ...ERROR_ENVELOPE_SCHEMA,
    properties: { ...properties, next_actions: { ...properties.next_actions, items: ref('NextAction') } },
  };
}

const ERROR_BODY: JsonSchema = {
  type: 'object',
  description: 'Any non-2xx answer: the operation\'s own answer fields (status, code, failure_reason, diagnostic, …) and error.',
  required: ['status', 'error'],
  properties: { status: { type: 'string' }, error: ref('ErrorEnvelope') },
};

function operationSchemas(): Record<string, JsonSchema> {
  return Object.fromEntries(
    CATALOG.flatMap((op) => [
      [resultSchemaName(op.name), { title: `${op.name} result`, ...op.result }],
      [
        answerSchemaName(op.name),
        { title: `${op.name} answer`, description: `A successful ${op.name} answer.`, allOf: [ref(resultSchemaName(op.name)), ANSWER_SCHEMAS[op.name]] },
      ],
    ]),
  );
}

export function componentSchemas(): Record<string, JsonSchema> {
  return {
    ...operationSchemas(),
    ErrorEnvelope: errorEnvelope(),
    NextAction: NEXT_ACTION,
    ErrorBody: ERROR_BODY,
    Approval: APPROVAL_SCHEMA,
  };
}

export const operationExampleName = (operation: OperationName) => `${operation}.answer`;
const alternateExampleName = (key: string) => `${key}.answer`;
export const errorExampleName = (run: ErrorExampleRun) => `error.${run.name}`;
export const gatewayExampleName = (route: string) => `${route}.answer`;

export function componentExamples(): Record<string, { summary: string; value: unknown }> {
  const operations = Object.entries(OPENAPI_EXAMPLES.operations).map(([name, run]) => [
    operationExampleName(name as OperationName),
    { summary: run.title, value: run.result },
  ]);
  const alternates = Object.entries(OPENAPI_EXAMPLES.alternates).map(([key, run]) => [alternateExampleName(key), { summary: run.title, value: run.result }]);
  const errors = OPENAPI_EXAMPLES.errors.map((run) => [errorExampleName(run), { summary: `${run.status}: ${run.summary}`, value: run.body }]);
  const gateway = Object.entries(OPENAPI_EXAMPLES.gateway).map(([route, value]) => [gatewayExampleName(route), { summary: route, value }]);
  return Object.fromEntries([...operations, ...alternates, ...errors, ...gateway]);
}

/** An operation's success examples: [key in the response, component name]; none until the example run has it. */
export function answerExamplesFor(operation: OperationName): [string, string][] {
  const own: [string, string][] = OPENAPI_EXAMPLES.operations[operation] ? [['example', operationExampleName(operation)]] : [];
  const alternates = Object.entries(OPENAPI_EXAMPLES.alternates)
    .filter(([, run]) => run.operation === operation)
    .map(([key]): [string, string] => [key.slice(operation.length + 1), alternateExampleName(key)]);
  return [...own, ...alternates];
}

/**
 * The error examples a route shows for a status: the gateway's own refusals wherever that status is
 * documented, and an operation's refusals on routes of its kind (target or candidate operations).
 */
export function errorExamplesFor(status: number, operation: OperationName | null): ErrorExampleRun[] {
  const kind = (name: OperationName | null | undefined) => (name && ENVELOPE_OPERATION_NAMES.has(name) ? 'candidate' : 'target');
  return OPENAPI_EXAMPLES.errors.filter(
    (run) => run.status === status && (run.operation === undefined || (operation !== null && kind(run.operation) === kind(operation))),
  );
}
