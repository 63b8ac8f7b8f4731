import type { LineEndingStyle } from '@palimpsest/core/text/canonical-text';
import { checkWorkspaceAccess } from '@palimpsest/core/workspace/workspace-access';
import type { WorkspacePathRefusal } from '@palimpsest/core/workspace/workspace-path';
import type { TargetHead } from '@palimpsest/projections/content/content-cache';
import { cachedTargetRow, readTargetRow, type TargetRow } from '@palimpsest/projections/content/target-row.queries';
import { latestBindingOfPath, latestBindingWithHead, type WorkspaceFileRow } from '@palimpsest/projections/workspace-files.queries';
import { hashWorkspaceFileBounded } from '@palimpsest/workspace/workspace-file-reader';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { openDestination } from '@palimpsest/workspace/workspace-destination';
import type { AppContext } from '../../app-context';
import { publicationRejected } from '../../workspace-publication/publication-answers';
import { settleBeforeIntake } from '../../workspace-publication/settle-before-intake';
import { createTarget } from '../../initialize-target/create-target';
import type { FileToolRefusal } from './file-tool-refusal';
import { fileTooLarge, pathRefusalAnswer } from '../../shared/workspace-text';
import { takeInDiskChange } from '../../workspace-refresh/take-in-disk-change';
import { refreshRefusalAnswer } from '../../workspace-refresh/workspace-refresh.handler';
import { workspaceNotConfigured } from '../../shared/workspace-not-configured';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

/**
 * "Find or bind the target of a path", what every file-tool write starts with. The target of a path is
 * the latest binding for (root, path). A file never touched is imported (a new target bound to it,
 * WorkspaceFileBound: initialize's domain step, create-target.ts); a bound file whose bytes are not its
 * baseline is first taken in as an external change (refresh's domain step, take-in-disk-change.ts, source
 * external_disk), so history stays complete and the tool then acts on what is on disk.
 */

export type FileTarget =
  | { kind: 'bound'; root: WorkspaceRoot; path: string; row: TargetRow; baseline: string; bound_style: LineEndingStyle; bound_now: boolean; external_attempt_id: string | null }
  | { kind: 'absent'; root: WorkspaceRoot; path: string }
  | { kind: 'answer'; answer: FileToolRefusal };

export const pathRefusal = (refusal: WorkspacePathRefusal, path: string): FileToolRefusal => pathRefusalAnswer(refusal, 'path', { path });

/** How many times a path whose binding moves while it is read is looked at again before the caller is told to resend. */
const LOOKS = 3;

export async function fileTargetOf(ctx: AppContext, requested: string): Promise<FileTarget> {
  for (let look = 1; ; look++) {
    const found = await lookUp(ctx, requested);
    if (found.kind !== 'moved') return found;
    if (look === LOOKS) {
      const message = `${found.path} was deleted, created or bound again by someone else each time it was read (${LOOKS} times): nothing was written. Send the same call again.`;
      return { kind: 'answer', answer: { ...pathRefusal({ code: 'PATH_CHANGED', message }, found.path), retryable: 'same_request' } };
    }
  }
}

/** The target of a path, or 'moved' when another writer bound the path to another target while it was read. */
async function lookUp(ctx: AppContext, requested: string, leased = false): Promise<FileTarget | { kind: 'moved'; path: string }> {
  const root = ctx.workspace;
  if (!root) {
    return { kind: 'answer', answer: workspaceNotConfigured('The file tools work under the workspace root', { argument: 'path' }) };
  }
  // Every caller writes: the reserved set and `.git` internals are refused here, before anything is bound.
  const checked = checkWorkspaceAccess(requested, { access: 'write', reserved: root.reserved });
  if (checked.kind === 'refused') return { kind: 'answer', answer: pathRefusal(checked.refusal, requested) };
  const path = checked.value.path;
  const binding = await latestBindingWithHead(ctx.db, root, path);
  const disk = await hashWorkspaceFileBounded(root, path);
  if (disk.kind === 'refused') {
    if (disk.refusal.code === 'PATH_NOT_FOUND') return { kind: 'absent', root, path };
    return { kind: 'answer', answer: pathRefusal(disk.refusal, path) };
  }
  if (disk.kind === 'too_large') return { kind: 'answer', answer: fileTooLarge(disk, 'path') };
  if (!binding) return bindOnce(ctx, root, path, requested);
  if (disk.sha256 === binding.disk_sha256 && binding.journal_state !== 'pending_reconcile') return loaded(ctx, root, path, binding.target_id, false, null, binding);
  // Bytes a killed publication installed and never recorded are put back, not taken in as an external change.
  if (binding.journal_state === null && (await settleBeforeIntake(ctx, binding, leased))) return { kind: 'moved', path };
  const refreshed = await takeInDiskChange(ctx, root, binding.target_id, { expected_target_version: null, expected_current_hash: null });
  if (refreshed.kind === 'refused') return { kind: 'answer', answer: { ...refreshRefusalAnswer(refreshed.refusal), argument: 'path', path } };
  return loaded(ctx, root, path, binding.target_id, false, refreshed.kind === 'refreshed' ? refreshed.attemptId : null);
}

/**
 * Binding a file is an import, and imports of one directory take its lease (seed 003) so that writers
 * arriving together bind the file once: whoever gets the lease second finds the binding and goes on as
 * for any bound file.
 */
async function bindOnce(ctx: AppContext, root: WorkspaceRoot, path: string, requested: string): Promise<FileTarget | { kind: 'moved'; path: string }> {
  const opened = openDestination(root, path, { createParents: false });
  if (opened.kind === 'refused') return opened.refusal.code === 'PATH_NOT_FOUND' ? { kind: 'absent', root, path } : { kind: 'answer', answer: pathRefusal(opened.refusal, path) };
  try {
    const lease = await ctx.leases.acquire([opened.dest.dir]);
    if (!lease) {
      const detail = `Another publication held the lease on the directory of ${path} for the whole ${ctx.leases.waitMs} ms this write waited to bind the file. Nothing was written: send the same call again.`;
      return { kind: 'answer', answer: publicationRejected(null, 'workspace_busy', detail, 'same_request', { paths: [path], waited_ms: ctx.leases.waitMs }, [{ operation: OP.read_file, reason: 'Nothing was written: see what the file holds now, then send the same call again', params: { path } }]) };
    }
    try {
      if (await latestBindingOfPath(ctx.db, root, path)) return lookUp(ctx, requested, true);
      return await bindNow(ctx, root, path);
    } finally {
      await lease.release();
    }
  } finally {
    opened.dest.close();
  }
}

async function bindNow(ctx: AppContext, root: WorkspaceRoot, path: string): Promise<FileTarget | { kind: 'moved'; path: string }> {
  const bound = await createTarget(ctx, { filename: path, from_workspace: true });
  if (bound.kind === 'refused') return bound.answer.status === 'not_found' ? { kind: 'absent', root, path } : { kind: 'answer', answer: { ...bound.answer, argument: 'path', path } };
  return loaded(ctx, root, path, bound.target.target_id, true, null);
}

/** The bound target as it is now; the binding is read again unless the caller's is still current (nothing was bound or taken in since). */
async function loaded(ctx: AppContext, root: WorkspaceRoot, path: string, targetId: string, boundNow: boolean, external: string | null, current?: WorkspaceFileRow & { head: TargetHead }): Promise<FileTarget | { kind: 'moved'; path: string }> {
  // The binding read with its target's head: when the cache holds that version's text, nothing more is read.
  const hit = current ? cachedTargetRow(current.head, ctx.contents) : null;
  const [row, binding] = hit ? [hit, current] : await Promise.all([readTargetRow(ctx.db, targetId, ctx.contents), current ?? latestBindingOfPath(ctx.db, root, path)]);
  if (!row || !binding || binding.target_id !== targetId) return { kind: 'moved', path };
  return { kind: 'bound', root, path, row, baseline: binding.disk_sha256, bound_style: binding.source_line_ending_style, bound_now: boundNow, external_attempt_id: external };
}
