import type { ContentEol } from '@palimpsest/core/reads/export-target';
import type { InstalledFile } from '@palimpsest/core/publication/publication.events';
import type { Refusal } from '@palimpsest/protocol/refusal';
import type { NextAction, Retryable } from '@palimpsest/core/errors/error-model';
import { resent } from '@palimpsest/core/diagnostics/retry-request';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import { pathRefusalAnswer } from '../shared/workspace-text';
import { publicationRejected, workspaceRefreshAction, workspaceStatusAction } from '../workspace-publication/publication-answers';
import type { PublishResult } from '../workspace-publication/publish-files';
import type { SaveAnswer, SaveCheckpointInput } from './saved-answer';

/**
 * A save's publication result as the seed's answer (seed 003 "Publication outcomes"): saved with
 * workspace_sync; rejected before installation (nothing on disk changed, no checkpoint); partial after
 * installation (the file installed, the checkpoint not recorded or not known to be).
 */

interface Context {
  targetId: string;
  path: string;
  input: SaveCheckpointInput;
  eol: ContentEol;
}

function receipt<S extends string>(installed: InstalledFile[], ctx: Context, journal: { id: string; state: S }) {
  const f = installed[0];
  return {
    synced_path: f.path,
    disk_sha256: f.disk_sha256,
    bytes_written: f.bytes_written,
    content_eol: ctx.eol,
    publication: 'installed' as const,
    durability: f.durability,
    journal,
  };
}

const sameSave = (ctx: Context, reason: string): NextAction => resent({ operation: OP.palimpsest_save, args: { ...ctx.input } }, reason);
const refresh = (ctx: Context, reason: string) => workspaceRefreshAction(ctx.targetId, reason);
const status = (ctx: Context, reason: string) => workspaceStatusAction(ctx.path, reason);
const rejected = (ctx: Context, reason: string, detail: string, retryable: Retryable, diagnostic: Record<string, unknown>, next: NextAction[]) =>
  publicationRejected(ctx.targetId, reason, detail, retryable, diagnostic, next);

function partial(ctx: Context, code: string, detail: string, installed: InstalledFile[], journal: { id: string; state: string }, extra: Omit<Refusal<'partial'>, 'status'> = {}): Refusal<'partial'> {
  return {
    status: 'partial',
    target_file_id: ctx.targetId,
    code,
    failure_detail: `${detail}. The file was installed and left in place: inspect it and the target (palimpsest_workspace_status) before going on.`,
    workspace_sync: receipt(installed, ctx, journal),
    snapshot_id: null,
    closed_editing_cycle_id: null,
    new_editing_cycle_id: null,
    ...extra,
    next_actions: [status(ctx, 'See the file and its journal as they are now')],
  };
}

export function publicationAnswer(result: PublishResult<SaveAnswer>, ctx: Context): SaveAnswer {
  switch (result.kind) {
    case 'published': {
      const value = result.value;
      if (value.status !== 'saved') return value;
      const workspace_sync = receipt(result.installed, ctx, { id: result.journal_id, state: 'committed' });
      if (result.cleanup_error === null) return { ...value, workspace_sync };
      return partial(ctx, 'workspace_post_install_error', `cleanup after installation failed: ${result.cleanup_error}`, result.installed, { id: result.journal_id, state: 'committed' }, {
        snapshot_id: value.snapshot_id, closed_editing_cycle_id: value.closed_editing_cycle_id, new_editing_cycle_id: value.new_editing_cycle_id,
      });
    }
    case 'durability_uncertain':
      return partial(ctx, 'workspace_durability_uncertain', result.detail, result.installed, { id: result.journal_id, state: 'committed' });
    case 'outcome_uncertain':
      return partial(ctx, 'workspace_checkpoint_uncertain', `the database outcome is uncertain (${result.detail})`, result.installed, { id: result.journal_id, state: 'unknown' });
    case 'stopped':
      return result.answer;
    case 'busy':
      return rejected(ctx, 'workspace_busy', `Another publication held the lease on the directory of ${result.paths.join(', ')} for the whole ${result.waited_ms} ms this save waited its turn. Nothing was written.`, 'same_request', { paths: result.paths, waited_ms: result.waited_ms }, [
        sameSave(ctx, 'Send the same save again once the other publication is done'),
      ]);
    case 'pending':
      return rejected(ctx, 'recovery_required', `An interrupted publication left ${result.journals.flatMap((j) => j.paths).join(', ')} holding bytes that are neither its old nor its new version; it is never overwritten. Take the file's bytes in with palimpsest_workspace_refresh, then save again.`, 'none', { journals: result.journals }, [
        refresh(ctx, "Take the file's current bytes into the target, which closes the journal"),
        status(ctx, 'See the file and its journal'),
      ]);
    case 'drift': {
      const d = result.drifted[0];
      const detail = d.observed_sha256 === null
        ? `${d.path} is gone from disk. Nothing was written.`
        : `${d.path} was changed outside Palimpsest (its bytes are not what the target last imported or published). It was left intact and nothing was written.`;
      return rejected(ctx, 'external_disk_drift', detail, 'after_refresh', { path: d.path, expected_sha256: d.expected_sha256, observed_sha256: d.observed_sha256, journal_id: result.journal_id }, [
        refresh(ctx, 'Take the external change into the target (recorded as source external_disk), then save again'),
      ]);
    }
    case 'refused_path':
      return pathRefusalAnswer(result.refusal, 'target_file_id', { path: ctx.path });
    case 'io_error':
      return rejected(ctx, 'workspace_io_error', `Publishing ${ctx.path} failed: ${result.detail}. The journal ${result.journal_id} is ${result.state}.`, result.state === 'rolled_back' ? 'same_request' : 'none', { journal: { id: result.journal_id, state: result.state } }, [
        result.state === 'rolled_back' ? sameSave(ctx, 'Nothing was written: send the same save again') : status(ctx, 'See the file and its journal'),
      ]);
  }
}
