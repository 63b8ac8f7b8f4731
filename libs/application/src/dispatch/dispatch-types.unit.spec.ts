import type { NextAction } from '@palimpsest/core/errors/error-model';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import type { AppContext } from '../app-context';
import { dispatch } from './dispatch';

/**
 * The typed contract from name to answer field: `npm run typecheck` (which covers spec files) fails
 * when an @ts-expect-error line below stops being an error. Nothing here runs against a database:
 * the calls sit in functions the test never invokes.
 */

async function calls(ctx: AppContext): Promise<unknown[]> {
  const edits = [{ match: 'alpha', replace: 'gamma' }];
  // @ts-expect-error misspelled operation name
  const typo = await dispatch(ctx, 'palimpsest_sumbit_edits', { target_file_id: 'id', intent: 'x', edits });
  // @ts-expect-error a param the operation does not take
  const extra = await dispatch(ctx, 'palimpsest_read_lines', { target_file_id: 'id', start_line: 1, replacement: 'x' });
  // @ts-expect-error a param of the wrong type
  const wrong = await dispatch(ctx, 'palimpsest_read_lines', { target_file_id: 'id', start_line: 'one' });

  const read = await dispatch(ctx, 'palimpsest_read_lines', { target_file_id: 'id', start_line: 1 });
  // @ts-expect-error a field no answer of read_lines has
  const missing = read.line_count;
  const fields: unknown[] = [];
  if (read.status === 'ok') {
    const text: string = read.text;
    const next: number | null = read.next_offset;
    // @ts-expect-error text is a string, not a number
    const notNumber: number = read.text;
    // @ts-expect-error a success of read_lines has no accepted-only field
    fields.push(text, next, notNumber, read.attempt_id);
  }
  const submitted = await dispatch(ctx, 'palimpsest_submit_edits', { target_file_id: 'id', intent: 'x', expected_target_version: 0, edits });
  if (submitted.status === 'accepted') {
    const version: number = submitted.version;
    // @ts-expect-error an accepted submission carries no scope text
    fields.push(version, submitted.scope_start);
  }
  // @ts-expect-error a submission never answers "ok"
  const never = submitted.status === 'ok';
  return [typo, extra, wrong, missing, never, ...fields];
}

function actions(): NextAction[] {
  const read: NextAction = { operation: 'palimpsest_read_lines', reason: 'read', params: { target_file_id: 'id', start_line: 3 } };
  // @ts-expect-error misspelled operation in a next action
  const typo: NextAction = { operation: 'palimpsest_read_line', reason: 'read', params: { target_file_id: 'id' } };
  // @ts-expect-error a param that operation does not take
  const extra: NextAction = { operation: 'palimpsest_get_target', reason: 'read', params: { target_file_id: 'id', start_line: 3 } };
  // @ts-expect-error params of another operation (read_lines requires target_file_id)
  const other: NextAction = { operation: 'palimpsest_read_lines', reason: 'read', params: { path: 'a.ts' } };
  return [read, typo, extra, other];
}

describe('the typed dispatch', () => {
  it('compiles only catalog names, their params and their answers\' fields (the proof is the type check)', () => {
    expect(typeof calls).toBe('function');
    expect(actions()).toHaveLength(4);
  });

  it('types an answer by its status', () => {
    const ok: Result<'palimpsest_get_target'> = { status: 'not_found', code: 'TARGET_NOT_FOUND' };
    expect(ok.status).toBe('not_found');
  });
});
