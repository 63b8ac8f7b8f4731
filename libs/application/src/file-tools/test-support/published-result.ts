import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';

const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
const compiled = new Map<string, ValidateFunction>();

/** The published schema of `name`'s result or params (schemas/operations/<name>.<kind>.v1.json), compiled once. */
export function publishedSchema(name: string, kind: 'result' | 'params'): ValidateFunction {
  const key = `${name}.${kind}`;
  let validate = compiled.get(key);
  if (!validate) {
    const file = join(__dirname, '../../../../../schemas/operations', `${key}.v1.json`);
    compiled.set(key, (validate = ajv.compile(JSON.parse(readFileSync(file, 'utf8')))));
  }
  return validate;
}

/** Throws with ajv's errors when `answer` is not a valid result of `name`. */
export function expectPublishedResult(name: string, answer: unknown): void {
  const validate = publishedSchema(name, 'result');
  if (!validate(answer)) throw new Error(`${name} answer does not match its published schema: ${JSON.stringify(validate.errors)}\n${JSON.stringify(answer).slice(0, 500)}`);
}
