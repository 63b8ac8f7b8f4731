import type { Checked } from '../invalid-argument';

/** The value of an ok result; a refusal fails the test with its body. */
export function value<T>(result: Checked<T>): T {
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return result.value;
}

/** The refusal of a result that must be refused. */
export function errorOf<T>(result: Checked<T>) {
  if (result.ok) throw new Error('expected invalid_argument');
  return result.error;
}
