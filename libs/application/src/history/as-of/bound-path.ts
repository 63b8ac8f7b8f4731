import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { checkWorkspacePath } from '@palimpsest/core/workspace/workspace-path';
import { latestBindingOfPath, type WorkspaceFileRow } from '@palimpsest/projections/workspace-files.queries';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import type { AppContext } from '../../app-context';
import { pathRefusalAnswer, type WorkspaceFileNotFound } from '../../shared/workspace-text';

/**
 * The target a workspace path is bound to (the last import of it under this root), found from the record
 * alone: a file's history stays readable after the file was moved or deleted on disk.
 */
export async function boundTargetOfPath(ctx: AppContext, root: WorkspaceRoot, requested: string): Promise<{ ok: true; row: WorkspaceFileRow } | { ok: false; answer: InvalidArgument | WorkspaceFileNotFound }> {
  const check = checkWorkspacePath(requested);
  if (check.kind === 'refused') return { ok: false, answer: pathRefusalAnswer(check.refusal, 'path') };
  const row = await latestBindingOfPath(ctx.db, root, check.value.path);
  if (!row) {
    const detail = `${JSON.stringify(check.value.path)} is not bound to a target (import it with palimpsest_initialize_target from_workspace, or edit it with edit_file/write_file): it has no history.`;
    return { ok: false, answer: invalidArgument('target_not_bound_to_workspace', detail, { argument: 'path' }) };
  }
  return { ok: true, row };
}
