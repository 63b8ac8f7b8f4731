import { toCanonicalLf } from '@palimpsest/core/text/canonical-text';
import type { AppContext } from '../../app-context';
import type { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { fileTargetOf } from '../shared/file-target';
import { approvedWrite, needsApproval, type WriteCaller } from '../shared/approved-write';
import { guardedWrite } from '../shared/guarded-write';
import { unifiedDiff } from '../shared/unified-diff';
import { auditFields } from '../shared/write-receipt';
import { editFileRefusal } from './edit-file-refusal';
import { editFileChange } from './edit-lands';

export interface EditFileInput {
  path: string;
  oldString: string;
  newString: string;
  /** The line the caller expects oldString on: an ambiguous refusal offers the occurrences nearest it first. */
  near_line?: number;
  /** A refusal also carries the recorded diagnostic and the text around the failure. */
  detail?: boolean;
}

/**
 * edit_file (seed 004): a guarded tx/1 typed-match edit of the file's target. oldString and newString
 * are taken to LF, so matching runs on the canonical text whatever the file's line endings (an
 * oldString sent with \r\n matches a CRLF file); the file is written back in its recorded style.
 * Zero or several matches are a recorded rejection answered with the calls that would land
 * (edit-file-refusal.ts); one match is published, after an operator's grant when the caller's policy
 * asks for approvals (approved-write.ts).
 */
export async function editFile(ctx: AppContext, input: EditFileInput, caller?: WriteCaller): Promise<Result<OP.edit_file>> {
  const t = await fileTargetOf(ctx, input.path);
  if (t.kind === 'answer') return t.answer;
  if (t.kind === 'absent') {
    return { status: 'not_found', code: 'PATH_NOT_FOUND', failure_detail: `${t.path} does not exist: edit_file changes an existing file; create one with write_file.`, argument: 'path', path: t.path };
  }
  const match = toCanonicalLf(input.oldString);
  const replace = toCanonicalLf(input.newString);
  const change = { ...editFileChange(t.path, input.oldString, input.newString), correlation_id: caller?.correlationId ?? null };
  const outcome = needsApproval(caller) ? await approvedWrite(ctx, t, change, { kind: 'edit', match, replace }, caller) : await guardedWrite(ctx, t, change);
  if (outcome.kind === 'answer') return outcome.answer;
  if (outcome.kind === 'rejected') {
    const { rejection, before } = outcome;
    return editFileRefusal({ path: t.path, state: before, match, replace, rejection, nearLine: input.near_line ?? null, detail: input.detail === true, now: ctx.clock.now() });
  }
  return {
    status: 'ok',
    path: t.path,
    replacements: 1,
    diff: unifiedDiff(t.path, outcome.before.content, outcome.after.content),
    ...auditFields(t, outcome.written, outcome.after),
  };
}
