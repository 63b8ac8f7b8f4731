import { canonicalizeUpload } from '../text/canonical-text';
import { PROTOCOL } from '../transaction/transaction.types';
import { checkGuardsAgainst } from './guards';
import { decide } from './target.decider';
import { NO_HINTS, type TargetDecision } from './target-decision';
import type { TargetEvent, WorkspaceFileRefreshedData } from './target.events';
import type { ExistingTarget } from './target.state';

/** A bound file whose bytes no longer hash to its baseline, read under the target's row lock. */
export interface RefreshWorkspaceFile {
  now: string;
  /** The id the whole replacement is recorded under, when the text differs. */
  attempt_id: string;
  path: string;
  /** The file's text, decoded as strict UTF-8 (line endings as on disk). */
  content: string;
  disk_sha256: string;
  previous_disk_sha256: string;
  expected_target_version: number | null;
  expected_current_hash: string | null;
}

export const EXTERNAL_DISK_SOURCE = 'external_disk';

export const refreshIntent = (path: string) => `Take in an external change to ${path}`;

/**
 * Take a drifted file's text into its target: an ordinary guarded tx/3 whole replacement (source
 * external_disk) through the target decider, then WorkspaceFileRefreshed with the new baseline. Text
 * that already equals the target's (only bytes moved) records the baseline alone. Stale guards refuse,
 * recording nothing: the caller decides again on what it re-reads.
 */
export function decideRefresh(cmd: RefreshWorkspaceFile, target: ExistingTarget): TargetDecision {
  const observed = { target_id: target.target_id, current_version: target.version, current_hash: target.current_hash };
  const stale = checkGuardsAgainst(cmd.expected_target_version, cmd.expected_current_hash, target);
  if (stale) return { kind: 'refused', refusal: { kind: 'guard_stale', stale, ...observed } };
  const upload = canonicalizeUpload(cmd.content);
  const refreshed = (attemptId: string | null): TargetEvent => ({ type: 'WorkspaceFileRefreshed', data: refreshedData(cmd, target.target_id, upload.sourceLineEndings.style, attemptId) });
  if (upload.hash === target.current_hash) {
    return { kind: 'decided', events: [refreshed(null)], state: target, recoveredAttemptId: null, hints: NO_HINTS };
  }
  const replaced = decide(
    {
      type: 'SubmitProposal',
      now: cmd.now,
      attempt_id: cmd.attempt_id,
      target_id: target.target_id,
      protocol_version: PROTOCOL.tx3,
      proposal: { intent: refreshIntent(cmd.path), replacement: cmd.content },
      expected_target_version: target.version,
      expected_current_hash: target.current_hash,
      source: EXTERNAL_DISK_SOURCE,
      lookups: { keyed: null, parent: null },
    },
    target,
  );
  if (replaced.kind === 'refused') return replaced;
  const accepted = replaced.events[0];
  if (accepted?.type !== 'ProposalAccepted') throw new Error(`a refresh of ${cmd.path} did not accept its replacement (${accepted?.type ?? 'no event'})`);
  return { ...replaced, events: [accepted, refreshed(accepted.data.attempt_id)] };
}

function refreshedData(cmd: RefreshWorkspaceFile, targetId: string, style: WorkspaceFileRefreshedData['source_line_ending_style'], attemptId: string | null): WorkspaceFileRefreshedData {
  return {
    target_id: targetId,
    path: cmd.path,
    disk_sha256: cmd.disk_sha256,
    previous_disk_sha256: cmd.previous_disk_sha256,
    attempt_id: attemptId,
    source_line_ending_style: style,
    refreshed_at: cmd.now,
  };
}
