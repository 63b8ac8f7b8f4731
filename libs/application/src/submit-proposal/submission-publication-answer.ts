import type { NextAction } from '@palimpsest/core/errors/error-model';
import type { Refusal } from '@palimpsest/protocol/refusal';
import { pathRefusalAnswer } from '../shared/workspace-text';
import { installedUncertain, publicationRejected, workspaceRefreshAction, workspaceStatusAction } from '../workspace-publication/publication-answers';
import type { PublishResult } from '../workspace-publication/publish-files';

/**
 * A direct submission whose publication did not complete, as its answer. Before installation nothing
 * changed on disk and nothing was recorded (rejected, with the step that clears it); after it (partial)
 * the file holds the new bytes and the answer says what is not known.
 */
export function submissionPublicationRefusal<T>(result: Exclude<PublishResult<T>, { kind: 'published' | 'stopped' }>, targetId: string, path: string, resend: NextAction): Refusal<'rejected' | 'partial' | 'invalid_argument' | 'not_found'> {
  const refresh = workspaceRefreshAction(targetId, "Take the file's bytes on disk into the target (recorded as source external_disk), then send the change again against the new version");
  switch (result.kind) {
    case 'busy':
      return publicationRejected(targetId, 'workspace_busy', `Another publication holds the lease on the directory of ${path}. Nothing was written or recorded: send the same request again.`, 'same_request', { paths: result.paths }, [resend]);
    case 'pending':
      return publicationRejected(targetId, 'recovery_required', `An interrupted publication left ${path} holding bytes that are neither its old nor its new version; it is never overwritten and nothing was recorded. A person must look at it; palimpsest_workspace_refresh takes its bytes in.`, 'none', { journals: result.journals }, [
        workspaceStatusAction(path, 'See the file and its journal'),
      ]);
    case 'drift': {
      const d = result.drifted[0];
      if (d.observed_sha256 === null) return gone(targetId, path, d.expected_sha256, result.journal_id);
      return publicationRejected(targetId, 'external_disk_drift', `${path} was changed outside Palimpsest since it was last imported or published. It was left intact and nothing was recorded: take its bytes in first.`, 'after_refresh', {
        path, expected_sha256: d.expected_sha256, observed_sha256: d.observed_sha256, journal_id: result.journal_id,
      }, [refresh]);
    }
    case 'refused_path':
      if (result.refusal.code === 'PATH_NOT_FOUND') return gone(targetId, path, null, null);
      return pathRefusalAnswer(result.refusal, 'target_file_id', { path });
    case 'io_error':
      return publicationRejected(targetId, 'workspace_io_error', `Publishing ${path} failed: ${result.detail}. The journal ${result.journal_id} is ${result.state}; nothing was recorded.`, result.state === 'rolled_back' ? 'same_request' : 'none', { journal: { id: result.journal_id, state: result.state } }, [
        result.state === 'rolled_back' ? resend : workspaceStatusAction(path, 'See the file and its journal'),
      ]);
    case 'durability_uncertain':
    case 'outcome_uncertain':
      return installedUncertain(result, path, targetId, 'the file and the target');
  }
}

function gone(targetId: string, path: string, expected: string | null, journalId: string | null): Refusal<'rejected'> {
  return publicationRejected(targetId, 'external_disk_drift', `${path} is gone from disk: nothing was written or recorded. Restore the file, or start a new target for a new file.`, 'after_refresh', {
    path, expected_sha256: expected, observed_sha256: null, journal_id: journalId,
  }, [workspaceStatusAction(path, 'See which bound files are missing')]);
}
