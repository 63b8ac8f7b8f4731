import type { NextAction } from '@palimpsest/core/errors/error-model';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { AppContext } from '../app-context';
import { dispatch } from './dispatch';
import type { OperationHandler } from './operation-handler';

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

/** Operations whose handlers now build their typed Result: a field their answer lacks fails the check, on both sides. */
async function typedWrites(ctx: AppContext): Promise<unknown[]> {
  const out: unknown[] = [];
  const edited = await dispatch(ctx, OP.edit_file, { path: 'a.md', oldString: 'a', newString: 'b' });
  if (edited.status === 'ok') {
    const diff: string = edited.diff;
    // @ts-expect-error edit_file's success has no bytesWritten (write_file's has)
    out.push(diff, edited.bytesWritten);
  }
  const written = await dispatch(ctx, OP.write_file, { path: 'a.md', content: 'x' });
  if (written.status === 'ok') {
    const created: boolean = written.created;
    // @ts-expect-error write_file's success has no diff
    out.push(created, written.diff);
  }
  const saved = await dispatch(ctx, OP.palimpsest_save, { target_file_id: 'id' });
  if (saved.status === 'saved') {
    // @ts-expect-error a save records a checkpoint, not an attempt
    out.push(saved.snapshot_id, saved.attempt_id);
  }
  const applied = await dispatch(ctx, OP.palimpsest_change_apply, { candidate: 'c', expected_candidate_version: 1, request_id: 'r' });
  if (applied.status === 'ok') {
    // @ts-expect-error a receipt names candidate_version, not version
    out.push(applied.receipt.candidate_version, applied.receipt.version);
  }
  const refreshed = await dispatch(ctx, OP.palimpsest_workspace_refresh, { target_file_id: 'id' });
  if (refreshed.status === 'refreshed' || refreshed.status === 'in_sync') {
    // @ts-expect-error a refresh answers the disk's hash, not its content
    out.push(refreshed.disk_sha256, refreshed.content);
  }
  const created = await dispatch(ctx, OP.palimpsest_initialize_target, { filename: 'a.md', content: 'x' });
  if (created.status === 'ok') {
    // @ts-expect-error initialization answers the target's state without its text (get_target has current_content)
    out.push(created.version, created.current_content);
  }
  const previewed = await dispatch(ctx, OP.palimpsest_preview, { target_file_id: 'id', format: 'patchdiff-tx/1', edits: [] });
  if (previewed.status === 'accepted') {
    // @ts-expect-error a preview records nothing: it has no attempt
    out.push(previewed.after_hash, previewed.attempt_id);
  }
  return out;
}

/** Refusals carry named details: one a refusal carries reads typed, one no refusal carries does not compile. */
async function refusalDetails(ctx: AppContext): Promise<unknown[]> {
  const out: unknown[] = [];
  const read = await dispatch(ctx, OP.palimpsest_read_lines, { target_file_id: 'id', start_line: 1 });
  if (read.status === 'invalid_argument') {
    const argument: string | undefined = read.argument;
    const total: number | undefined = read.total_lines;
    // @ts-expect-error no refusal carries a detail of this name
    out.push(argument, total, read.line_count);
    // @ts-expect-error total_lines is a number, not a string
    const notString: string | undefined = read.total_lines;
    out.push(notString);
  }
  const submitted = await dispatch(ctx, OP.palimpsest_submit_edits, { target_file_id: 'id', intent: 'x', expected_target_version: 0, edits: [] });
  if (submitted.status === 'rejected') {
    const failed: string | null | undefined = submitted.failed_change_id;
    // @ts-expect-error a rejection is not a success: it has no version beside current_version
    out.push(failed, submitted.current_version, submitted.version);
    // @ts-expect-error a misspelled detail (failed_change_id)
    out.push(submitted.failed_change);
  }
  const edited = await dispatch(ctx, OP.edit_file, { path: 'a.md', oldString: 'a', newString: 'b' });
  if (edited.status !== 'ok') {
    const lines: number[] | undefined = edited.match_lines;
    // @ts-expect-error near_misses are objects with their line, not line numbers
    const nearLines: number[] | undefined = edited.near_misses;
    // @ts-expect-error a refusal carries no diff (the success does)
    out.push(lines, nearLines, edited.diff);
  }
  const refreshed = await dispatch(ctx, OP.palimpsest_workspace_refresh, { target_file_id: 'id' });
  if (refreshed.status === 'invalid_argument') {
    const bound = refreshed.bound_root?.dev;
    // @ts-expect-error a root is named by dev and ino, not by a path of the binding
    out.push(bound, refreshed.bound_root?.device);
  }
  return out;
}

// @ts-expect-error a refusal built with a detail no refusal carries does not compile
const unknownDetail: Result<OP.read_file> = { status: 'not_found', code: 'PATH_NOT_FOUND', failure_detail: 'x', missing_path: 'a.md' };

// @ts-expect-error a handler whose success misses its operation's fields does not compile
const partialSave: OperationHandler<OP.palimpsest_save> = async () => ({ status: 'saved', target_file_id: 't', snapshot_id: 's' });
// @ts-expect-error nor one that answers a status outside its result schema
const okEdit: OperationHandler<OP.edit_file> = async () => ({ status: 'accepted', path: 'a.md' });

describe('the typed dispatch', () => {
  it('compiles only catalog names, their params and their answers\' fields (the proof is the type check)', () => {
    expect(typeof calls).toBe('function');
    expect(actions()).toHaveLength(4);
    expect([typeof typedWrites, typeof partialSave, typeof okEdit]).toEqual(['function', 'function', 'function']);
    expect([typeof refusalDetails, unknownDetail.status]).toEqual(['function', 'not_found']);
  });

  it('types an answer by its status', () => {
    const ok: Result<'palimpsest_get_target'> = { status: 'not_found', code: 'TARGET_NOT_FOUND' };
    expect(ok.status).toBe('not_found');
  });
});
