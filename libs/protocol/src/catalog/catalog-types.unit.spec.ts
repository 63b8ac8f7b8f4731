import { CATALOG, findOperation, isOperationName, operationSpec, type OperationName } from './catalog';
import type { Params, Result } from './operation-types';

/**
 * The catalog's names are a type: `npm run typecheck` (which covers spec files) fails when an
 * @ts-expect-error line below stops being an error, so these lines prove what the compiler refuses.
 */
describe('the typed catalog', () => {
  it('names its operations as a union: a misspelled or unknown name does not compile', () => {
    const known: OperationName = 'palimpsest_submit_edits';
    // @ts-expect-error no such operation
    const bogus: OperationName = 'palimpsest_no_such_operation';
    // @ts-expect-error misspelled (one letter)
    const typo: OperationName = 'palimpsest_submit_edit';
    expect(isOperationName(known)).toBe(true);
    expect(isOperationName(bogus)).toBe(false);
    expect(isOperationName(typo)).toBe(false);
  });

  it('types params and results from the schemas', () => {
    const params: Params<'palimpsest_read_lines'> = { target_file_id: 'id', start_line: 1 };
    // @ts-expect-error start_line is an integer in the schema
    const wrong: Params<'palimpsest_read_lines'> = { target_file_id: 'id', start_line: 'one' };
    // @ts-expect-error target_file_id is required
    const missing: Params<'palimpsest_read_lines'> = { start_line: 1 };
    const status: Result<'palimpsest_submit_edits'>['status'][] = ['accepted', 'rejected', 'not_found', 'invalid_argument'];
    // @ts-expect-error a submission never answers "ok"
    const never: Result<'palimpsest_submit_edits'>['status'] = 'ok';
    expect([params, wrong, missing, status, never]).toHaveLength(5);
  });

  it('finds every operation by name, and only those', () => {
    for (const op of CATALOG) {
      expect(findOperation(op.name)).toBe(op);
      expect(operationSpec(op.name)).toBe(op);
    }
    expect(findOperation('palimpsest_no_such_operation')).toBeUndefined();
  });
});
