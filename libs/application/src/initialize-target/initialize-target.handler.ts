import { contentTypeOf } from '@palimpsest/core/text/content-type';
import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { isUuid } from '@palimpsest/core/target/request-identity';
import { decide } from '@palimpsest/core/target/target.decider';
import { initialTargetState } from '@palimpsest/core/target/target.state';
import type { WorkspaceSource } from '@palimpsest/core/target/target.commands';
import type { PublishMode } from '@palimpsest/core/target/target.events';
import type { AppContext } from '../app-context';
import { importWorkspaceFile } from './workspace-import';
import { refusalAnswer } from '../shared/target-refusals';
import { transactionCommitting } from '../shared/commit-events';
import { workspaceNotConfigured } from '../shared/workspace-not-configured';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

export interface InitializeTargetInput {
  filename: string;
  content?: string | null;
  content_type?: string | null;
  project_id?: string | null;
  from_workspace?: boolean;
  publish?: PublishMode | null;
}

export const DEFAULT_CONTENT_TYPE = 'text/plain';

function checkInput(ctx: AppContext, input: InitializeTargetInput): InvalidArgument | null {
  if (input.from_workspace) {
    if (input.content != null) {
      return invalidArgument('content_conflicts_with_workspace', 'from_workspace reads the text from the file: omit content or pass null.', {
        argument: 'content',
      });
    }
    if (!ctx.workspace) {
      return workspaceNotConfigured('from_workspace reads the file under the workspace root (or send content inline)', {
        argument: 'from_workspace',
      });
    }
  } else if (typeof input.content !== 'string') {
    return invalidArgument('missing_content', 'content is required for inline initialization.', { argument: 'content' });
  } else if (input.publish != null) {
    return invalidArgument('publish_needs_workspace', 'publish says when changes reach a bound workspace file: it needs from_workspace: true (or omit it).', { argument: 'publish' });
  }
  if (input.filename.trim().length === 0) {
    return invalidArgument('invalid_filename', 'filename must not be blank.', { argument: 'filename' });
  }
  if (input.project_id != null && !isUuid(input.project_id)) {
    return invalidArgument('invalid_project_id', 'project_id must be a UUID or null.', { argument: 'project_id' });
  }
  return null;
}

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
  const bad = checkInput(ctx, input);
  if (bad) return bad;
  let content = input.content as string;
  let workspace: WorkspaceSource | undefined;
  const publish = input.publish ?? ctx.workspacePublish;
  if (input.from_workspace) {
    const imported = await importWorkspaceFile(ctx.workspace!, input.filename);
    if (!imported.ok) return imported.answer;
    ({ content, source: workspace } = imported);
  }
  const targetId = ctx.ids.next();
  const now = ctx.clock.now();
  const outcome = decide(
    {
      type: 'InitializeTarget',
      now,
      target_id: targetId,
      // A bound target is named by its file's canonical path (`./a.md` binds and names `a.md`).
      filename: workspace ? workspace.path : input.filename,
      content,
      // A workspace file's name is real: its extension says what it holds (README.md is text/markdown).
      content_type: input.content_type ?? (input.from_workspace ? contentTypeOf(input.filename) : DEFAULT_CONTENT_TYPE),
      project_id: input.project_id ? input.project_id.toLowerCase() : null,
      editing_cycle_id: ctx.ids.next(),
      snapshot_id: ctx.ids.next(),
      ...(workspace ? { workspace, publish } : {}),
    },
    initialTargetState,
  );
  if (outcome.kind === 'refused') {
    const answer = refusalAnswer(outcome.refusal);
    if (answer.status !== 'invalid_argument') throw new Error(`initialization refused as ${answer.status}`); // it refuses arguments only
    return answer;
  }
  const done = await transactionCommitting(ctx, (_tx, commit) =>
    commit({
      targetId,
      streamVersion: 0,
      previousChunks: [],
      events: outcome.events,
      stateAfter: outcome.state,
      recordedAt: now,
      metadata: { command: 'InitializeTarget' },
    }),
  );
  const t = outcome.state;
  if (!t.exists) throw new Error('initialization produced no target');
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
    // One event committed: its position is always known (no notification would mean nothing was appended).
    ...(done.notification ? { log_sequence: done.notification.global_position } : {}),
  };
}
