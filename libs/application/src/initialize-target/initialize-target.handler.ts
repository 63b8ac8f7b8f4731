import { invalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { AppContext } from '../app-context';
import { createTarget, type InitializeTargetInput } from './create-target';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

export { DEFAULT_CONTENT_TYPE, type InitializeTargetInput } from './create-target';

/**
 * palimpsest_handle_upload: an upload carries its content. from_workspace: true is refused with the
 * operation that imports a file, never ignored.
 */
export function handleUpload(ctx: AppContext, input: InitializeTargetInput) {
  if (input.from_workspace === true) {
    return Promise.resolve(
      invalidArgument('upload_from_workspace', 'palimpsest_handle_upload takes the text in content; it does not read workspace files. To import a file under the workspace root, call palimpsest_initialize_target with from_workspace: true (and no content).', {
        argument: 'from_workspace',
        next_actions: [{ operation: OP.palimpsest_initialize_target, reason: 'Import the workspace file and bind the target to it', params: { filename: input.filename, from_workspace: true } }],
      }),
    );
  }
  return initializeTarget(ctx, { ...input, from_workspace: false });
}

/** Creates a target: its stream's first event, the target row, and the initial snapshot. */
export async function initializeTarget(ctx: AppContext, input: InitializeTargetInput) {
  const created = await createTarget(ctx, input);
  if (created.kind === 'refused') return created.answer;
  const { target: t, workspace, publish } = created;
  return {
    status: 'ok' as const,
    target_file_id: t.target_id,
    filename: t.filename,
    target_type: t.content_type,
    version: t.version,
    current_hash: t.current_hash,
    active_editing_cycle_id: t.active_editing_cycle_id,
    source_line_endings: t.source_line_endings,
    workspace: workspace ? { path: workspace.path, source_sha256: workspace.source_sha256, publish } : null,
    ...(created.logSequence === null ? {} : { log_sequence: created.logSequence }),
  };
}
