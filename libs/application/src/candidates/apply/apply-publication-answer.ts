import { refusal, type Refusal } from '@palimpsest/core/candidate/candidate-refusal';
import type { NextAction } from '@palimpsest/core/errors/error-model';
import type { FileToPublish } from '../../workspace-publication/publication-files';
import { workspaceRefreshAction, workspaceStatusAction } from '../../workspace-publication/publication-answers';
import type { PublishResult } from '../../workspace-publication/publish-files';
import { applyArgs, type ApplyInput } from './apply-decision';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

/**
 * A publication that did not apply the candidate, as the refusal seed 000's error envelope carries ("Apply,
 * receipts and recovery", "After an apply timeout"): nothing written (external_write, workspace_busy), a file left
 * for a person (recovery_required), or an outcome this attempt cannot tell (outcome unknown: resend the
 * same request_id, which reconciles the journal first and applies once).
 */

type Failure = Exclude<PublishResult<unknown>, { kind: 'published' } | { kind: 'stopped' }>;

const sameApply = (input: ApplyInput, reason: string): NextAction => ({ operation: OP.palimpsest_change_apply, reason, params: applyArgs(input) });
const status = (path: string): NextAction => workspaceStatusAction(path);
const refresh = (targetId: string): NextAction => workspaceRefreshAction(targetId, "Take the file's bytes on disk into its target (recorded as source external_disk)");

export function applyPublicationRefusal(result: Failure, input: ApplyInput, files: FileToPublish[]): Refusal {
  const target = { candidate: input.candidate, request_id: input.request_id };
  switch (result.kind) {
    case 'drift': {
      const d = result.drifted[0];
      const what = d.observed_sha256 === null ? 'is gone from disk' : 'was edited outside Palimpsest since it was last imported or published';
      return refusal('precondition_failed', 'external_write', `${d.path} ${what}; nothing was written to any file of the candidate.`, {
        target,
        details: {
          path: d.path, target_file_id: d.target_id, expected_sha256: d.expected_sha256, observed_sha256: d.observed_sha256,
          drifted: result.drifted, journal: result.journal_id ? { id: result.journal_id, state: 'rolled_back' } : null,
        },
        next_actions: [
          refresh(d.target_id),
          { operation: OP.palimpsest_change_discard, reason: 'Discard this candidate and propose again from the current text', params: { candidate: input.candidate } },
        ],
      });
    }
    case 'busy':
      // Seed 000: a service bound that a retry of the same request clears is resource_limit with retryable same_request (as queue_full).
      return refusal('resource_limit', 'workspace_busy', `Another publication held the lease on the directory of ${result.paths.join(', ')} for the whole ${result.waited_ms} ms this apply waited its turn; nothing was written. Send the same request again.`, {
        target, retryable: 'same_request', details: { paths: result.paths, waited_ms: result.waited_ms }, next_actions: [sameApply(input, 'Send the same request again once the other publication is done')],
      });
    case 'pending':
      return recoveryRequired(input, result.journals);
    case 'io_error':
      if (result.state === 'pending_reconcile') return recoveryRequired(input, [{ journal_id: result.journal_id, paths: files.map((f) => f.path) }]);
      return refusal('internal', 'workspace_io_error', `Publishing the candidate's files failed (${result.detail}); the journal ${result.journal_id} was rolled back and nothing was written.`, {
        target, details: { outcome: 'not_applied', journal: { id: result.journal_id, state: 'rolled_back' } }, next_actions: [sameApply(input, 'Nothing was written: send the same request again, once')],
      });
    case 'refused_path': {
      const path = files[result.index].path;
      const { code, message } = result.refusal;
      if (code === 'PATH_NOT_FOUND') {
        return refusal('precondition_failed', 'external_write', `${path} is gone from disk (${message}); nothing was written.`, {
          target, details: { path, target_file_id: files[result.index].target_id, expected_sha256: files[result.index].replaced_sha256, observed_sha256: null, code },
        });
      }
      return refusal('permission_denied', 'path_escape', `${path} cannot be written inside the workspace: ${message}; nothing was written.`, { target, details: { path, code } });
    }
    case 'durability_uncertain':
    case 'outcome_uncertain':
      return outcomeUnknown(input, result.journal_id, result.kind === 'durability_uncertain' ? 'committed' : 'pending_reconcile', result.detail, files);
  }
}

function recoveryRequired(input: ApplyInput, journals: { journal_id: string; paths: string[] }[]): Refusal {
  const paths = journals.flatMap((j) => j.paths);
  return refusal('conflict', 'recovery_required', `An interrupted publication left ${paths.join(', ')} holding bytes that are neither the base nor the candidate; they are never overwritten. Show the user the paths; take the bytes in with palimpsest_workspace_refresh before applying again.`, {
    target: { candidate: input.candidate, request_id: input.request_id },
    details: { paths, journal: { id: journals[0].journal_id, state: 'pending_reconcile' }, journals },
    next_actions: paths.slice(0, 10).map(status),
  });
}

/**
 * Files were installed and this attempt cannot tell whether the candidate was recorded (the commit failed
 * or its answer was lost, or the directory's durability is unconfirmed). The same request reconciles.
 */
function outcomeUnknown(input: ApplyInput, journalId: string, state: string, detail: string, files: FileToPublish[]): Refusal {
  const journal = { id: journalId, state };
  return refusal('internal', 'outcome_unknown', `The candidate's files were installed and its outcome could not be recorded or confirmed (${detail}). Send the same change_apply with the same request_id: it reconciles the journal first and applies once.`, {
    target: { candidate: input.candidate, request_id: input.request_id },
    retryable: 'same_request',
    details: {
      outcome: 'unknown',
      journal,
      receipt: { request_id: input.request_id, candidate: input.candidate, outcome: 'unknown', journal, files: files.map((f) => ({ path: f.path, target_file_id: f.target_id, before_sha256: f.replaced_sha256 })) },
    },
    next_actions: [sameApply(input, 'Send the same request again, with the same request_id')],
  });
}
