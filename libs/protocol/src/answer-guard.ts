import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { ANSWER_SCHEMAS } from './catalog/answer-schemas';
import { CATALOG, findOperation, isOperationName, operationSpec, type OperationName } from './catalog/catalog';
import { isRecord } from '@palimpsest/core/shared/is-record';
import type { JsonSchema } from './catalog/operation-spec';
import type { Result } from './catalog/operation-types';
import { refusalSchema, statusesOf, TRUNCATED_FIELDS_SCHEMA } from './catalog/refusal-schema';
import type { Outcome } from './outcome';

/**
 * An answer that arrives as JSON (a gateway's, read by the CLI) is read as its operation's typed
 * Result only after it validated against that operation's published answer: its success as
 * ANSWER_SCHEMAS describes it, or a refusal (refusal-schema.ts) of a status its result schema lists.
 * Each operation's validator is compiled once, on its first answer.
 */

const REFUSAL_ID = 'urn:palimpsest:refusal';
const NEXT_ACTION_ID = 'urn:palimpsest:next-action';

/**
 * A next action as the answer's schema checks it: a catalog operation, a reason and params. The params
 * are then checked against the named operation's own params schema (nextActionErrors), compiled only for
 * the operations answers name: every params schema at once would cost a CLI call a second.
 */
const NEXT_ACTION: JsonSchema = {
  type: 'object',
  required: ['operation', 'reason', 'params'],
  properties: { operation: { enum: CATALOG.map((op) => op.name) }, reason: { type: 'string' }, params: { type: 'object' } },
};

// Shared parts are compiled once and referred to, not inlined.
const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, inlineRefs: false });
ajv.addSchema({ ...NEXT_ACTION, $id: NEXT_ACTION_ID });
ajv.addSchema({ ...refusalSchema({ $ref: NEXT_ACTION_ID }), $id: REFUSAL_ID });
const paramsValidators = new Map<OperationName, ValidateFunction>();
const validators = new Map<string, ValidateFunction>();

/** What dispatch may add to any success (AnswerNotes): the next actions checked as a refusal's are. */
const NOTES: JsonSchema = {
  type: 'object',
  properties: { next_actions: { type: 'array', items: { $ref: NEXT_ACTION_ID } }, result_truncated: TRUNCATED_FIELDS_SCHEMA },
};

/** A refusal of one of `statuses`. */
const refusalOf = (statuses: string[]): JsonSchema => ({ allOf: [{ $ref: REFUSAL_ID }, { type: 'object', properties: { status: { enum: statuses } } }] });

/** The answer schema of one operation, or (no such operation) dispatch's refusal of the name. */
function answerSchema(name: string): JsonSchema {
  const op = findOperation(name);
  if (!op) return refusalOf(['invalid_argument']);
  const success = ANSWER_SCHEMAS[op.name];
  const refusals = statusesOf(op.result).filter((s) => !statusesOf(success).includes(s));
  return { anyOf: [{ allOf: [op.result, success, NOTES] }, refusalOf(refusals)] };
}

/** `name` is an operation's, or '' for every name the catalog lacks (the map does not grow with misspellings). */
function validator(name: string): ValidateFunction {
  const known = validators.get(name);
  if (known) return known;
  const compiled = ajv.compile(answerSchema(name));
  validators.set(name, compiled);
  return compiled;
}

/** What the value lacks to be an answer of `operation` (ajv's first errors), or null when it is one. */
export function answerErrors(operation: string, value: unknown): string | null {
  const validate = validator(findOperation(operation) ? operation : '');
  if (!validate(value)) return ajv.errorsText(validate.errors?.slice(0, 3), { dataVar: 'answer' });
  return nextActionErrors(value);
}

/** The next actions an answer carries (its own, its error envelope's) whose params their operation's schema refuses. */
function nextActionErrors(answer: unknown): string | null {
  if (!isRecord(answer)) return null;
  const actions = [answer.next_actions, isRecord(answer.error) ? answer.error.next_actions : undefined].flatMap((a) => (Array.isArray(a) ? a : []));
  for (const action of actions) {
    if (!isRecord(action) || typeof action.operation !== 'string' || !isOperationName(action.operation)) continue;
    const validate = paramsValidator(action.operation);
    if (!validate(action.params)) return `the next action ${action.operation}: ${ajv.errorsText(validate.errors?.slice(0, 3), { dataVar: 'params' })}`;
  }
  return null;
}

function paramsValidator(operation: OperationName): ValidateFunction {
  const known = paramsValidators.get(operation);
  if (known) return known;
  const compiled = ajv.compile(operationSpec(operation).params);
  paramsValidators.set(operation, compiled);
  return compiled;
}

/** The value is an answer of operation N, as its published answer schema says. */
export function isAnswerOf<N extends OperationName>(operation: N, value: unknown): value is Result<N> {
  return answerErrors(operation, value) === null;
}

/** The value is what dispatchRequest answers for `operation`, a name that may not be in the catalog. */
export function isOutcomeOf(operation: string, value: unknown): value is Outcome {
  return answerErrors(operation, value) === null;
}
