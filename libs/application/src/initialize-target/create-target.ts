import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { isUuid } from '@palimpsest/core/target/request-identity';
import { contentTypeOf } from '@palimpsest/core/text/content-type';
import { initializeTargetCommand, type WorkspaceSource } from '@palimpsest/core/target/target.commands';
import { decide } from '@palimpsest/core/target/target.decider';
import type { PublishMode } from '@palimpsest/core/target/target.events';
import { initialTargetState, type ExistingTarget } from '@palimpsest/core/target/target.state';
import type { AppContext } from '../app-context';
import { createTargetStream } from '../shared/target-pipeline/target-pipeline';
import { refusalAnswer } from '../shared/target-refusals';
import { workspaceNotConfigured } from '../shared/workspace-not-configured';
import { importWorkspaceFile, type WorkspaceFileNotFound } from './workspace-import';

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

/** A target created (and bound, for a workspace import), or why not: refused arguments or an unreadable file. */
export type TargetCreation =
  | { kind: 'created'; target: ExistingTarget; workspace: WorkspaceSource | null; publish: PublishMode; logSequence: number | null }
  | { kind: 'refused'; answer: InvalidArgument | WorkspaceFileNotFound };

/**
 * The domain step of palimpsest_initialize_target, which the file tools take too when they bind a file
 * never touched: the content (inline, or read from the workspace file), InitializeTarget decided on no
 * target, and its events committed as the stream's first.
 */
export async function createTarget(ctx: AppContext, input: InitializeTargetInput): Promise<TargetCreation> {
  const bad = checkInput(ctx, input);
  if (bad) return { kind: 'refused', answer: bad };
  let content = input.content as string;
  let workspace: WorkspaceSource | undefined;
  const publish = input.publish ?? ctx.workspacePublish;
  if (input.from_workspace) {
    const imported = await importWorkspaceFile(ctx.workspace!, input.filename);
    if (!imported.ok) return { kind: 'refused', answer: imported.answer };
    ({ content, source: workspace } = imported);
  }
  const targetId = ctx.ids.next();
  const now = ctx.clock.now();
  const command = initializeTargetCommand(
    {
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
    },
    workspace ? { workspace, publish } : null,
  );
  const outcome = decide(command, initialTargetState);
  if (outcome.kind === 'refused') {
    const answer = refusalAnswer(outcome.refusal);
    if (answer.status !== 'invalid_argument') throw new Error(`initialization refused as ${answer.status}`); // it refuses arguments only
    return { kind: 'refused', answer };
  }
  const done = await createTargetStream(ctx, targetId, outcome, now, { command: 'InitializeTarget' });
  const t = outcome.state;
  if (!t.exists) throw new Error('initialization produced no target');
  return { kind: 'created', target: t, workspace: workspace ?? null, publish, logSequence: done.notification?.global_position ?? null };
}
