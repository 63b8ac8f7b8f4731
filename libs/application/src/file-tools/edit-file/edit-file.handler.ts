import { toCanonicalLf } from '@palimpsest/core/text/canonical-text';
import { PROTOCOL } from '@palimpsest/core/transaction/transaction.types';
import type { AppContext } from '../../app-context';
import type { Answer } from '../../shared/answer';
import { fileTargetOf } from '../shared/file-target';
import { approvedWrite, needsApproval, type WriteCaller } from '../shared/approved-write';
import { guardedWrite, type GuardedChange } from '../shared/guarded-write';
import { matchLines, MAX_MATCH_LINES } from '../shared/match-lines';
import { unifiedDiff } from '../shared/unified-diff';
import { auditFields } from '../shared/write-receipt';

export interface EditFileInput {
  path: string;
  oldString: string;
  newString: string;
}

/**
 * edit_file (seed 004): a guarded tx/1 typed-match edit of the file's target. oldString and newString
 * are taken to LF, so matching runs on the canonical text whatever the file's line endings (an
 * oldString sent with \r\n matches a CRLF file); the file is written back in its recorded style.
 * Zero or several matches are a recorded rejection naming every match's line; one is published, after an
 * operator's grant when the caller's policy asks for approvals (approved-write.ts).
 */
export async function editFile(ctx: AppContext, input: EditFileInput, caller?: WriteCaller): Promise<Answer> {
  const t = await fileTargetOf(ctx, input.path);
  if (t.kind === 'answer') return t.answer;
  if (t.kind === 'absent') {
    return { status: 'not_found', code: 'PATH_NOT_FOUND', failure_detail: `${t.path} does not exist: edit_file changes an existing file; create one with write_file.`, argument: 'path', path: t.path };
  }
  const match = toCanonicalLf(input.oldString);
  const replace = toCanonicalLf(input.newString);
  const change: GuardedChange = { tool: 'edit_file', protocol: PROTOCOL.tx1, proposal: { intent: `edit_file ${t.path}`, edits: [{ match, replace }] } };
  const outcome = needsApproval(caller) ? await approvedWrite(ctx, t, change, { kind: 'edit', match, replace }, caller) : await guardedWrite(ctx, t, change);
  if (outcome.kind === 'answer') return outcome.answer;
  if (outcome.kind === 'rejected') return refusedEdit(outcome.answer, t.path, outcome.before.content, match);
  return {
    status: 'ok',
    path: t.path,
    replacements: 1,
    diff: unifiedDiff(t.path, outcome.before.content, outcome.after.content),
    ...auditFields(t, outcome.written, outcome.after),
  };
}

/** The seed's advice on a refused edit: every match's line, and add surrounding lines until it is unique. */
function refusedEdit(answer: Answer, path: string, text: string, match: string): Answer {
  const lines = matchLines(text, match);
  const reason = String(answer.failure_reason);
  const message =
    reason === 'match_ambiguous'
      ? `oldString matches ${lines.count} places in ${path} (lines ${lines.lines.join(', ')}${lines.truncated ? ', …' : ''}): it must match exactly once. Add surrounding lines to oldString until it is unique; never retry the same string.`
      : reason === 'match_absent'
        ? `oldString does not occur in ${path}. Read the file again and copy the text exactly (near misses, if any, are in diagnostic.near_misses).`
        : String(answer.failure_detail);
  return {
    ...answer,
    path,
    message,
    match_count: lines.count,
    match_lines: lines.lines,
    match_lines_truncated: lines.truncated,
    next_actions: [{ operation: 'read_file', reason: reason === 'match_ambiguous' ? `Read around lines ${lines.lines.slice(0, MAX_MATCH_LINES).join(', ')} and add surrounding lines to oldString` : 'Read the file and copy oldString exactly', params: { path } }],
  };
}
