import { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { AppContext } from '../app-context';
import { fileTargetOf } from '../file-tools/shared/file-target';
import { undoAttempt } from './undo-attempt.handler';

export interface UndoEditInput {
  path: string;
  attempt_id: string;
}

/**
 * palimpsest_undo_edit: palimpsest_undo_attempt for a workspace file named by path. The file is found
 * as the file tools find it (bytes changed on disk are taken in first, as an external change), and the
 * undo is published to it through its journal like any write.
 */
export async function undoEdit(ctx: AppContext, input: UndoEditInput, sessionId: string | null = null) {
  const found = await fileTargetOf(ctx, input.path);
  if (found.kind === 'answer') return found.answer;
  if (found.kind === 'absent') {
    return {
      status: 'not_found' as const,
      code: 'PATH_NOT_FOUND',
      path: found.path,
      failure_detail: `${found.path} does not exist: there is no edit of it to undo.`,
      next_actions: [{ operation: OP.list_files, reason: 'See which files exist', params: { path: '.' } }],
    };
  }
  const answer = await undoAttempt(ctx, { target_file_id: found.row.target_id, attempt_id: input.attempt_id }, sessionId);
  return { ...answer, path: found.path };
}
