import type { DecideApproval, DiscardCandidate, RecordChecks, WithdrawApproval } from './candidate.commands';
import type { CandidateEvent } from './candidate.events';
import { refusal } from './candidate-refusal';
import { accepted, refused, requireOpen, versionMismatch, type CandidateDecision } from './candidate-decision';
import type { CandidateState } from './candidate.state';

/** Check results are facts about the version they ran on; they are recorded while the candidate is open. */
export function decideRecordChecks(cmd: RecordChecks, state: CandidateState): CandidateDecision {
  const open = requireOpen(state, cmd.candidate_id, cmd.now, 'check');
  if (!open.ok) return open.decision;
  if (cmd.candidate_version < 1 || cmd.candidate_version > open.candidate.version) {
    return refused(refusal('invalid_arguments', 'candidate_version_unknown', `Candidate ${cmd.candidate_id} has no version ${cmd.candidate_version}.`));
  }
  return accepted(
    cmd.results.map((r): CandidateEvent => ({
      type: 'CheckRecorded',
      data: { candidate_id: cmd.candidate_id, candidate_version: cmd.candidate_version, ...r, recorded_at: cmd.now },
    })),
  );
}

export function decideDiscard(cmd: DiscardCandidate, state: CandidateState): CandidateDecision {
  const open = requireOpen(state, cmd.candidate_id, cmd.now, 'discard');
  if (!open.ok) return open.decision;
  const stale = cmd.expected_candidate_version === null ? null : versionMismatch(open.candidate, cmd.expected_candidate_version);
  if (stale) return refused(stale);
  return accepted([
    { type: 'CandidateDiscarded', data: { candidate_id: cmd.candidate_id, candidate_version: open.candidate.version, discarded_at: cmd.now } },
  ]);
}

/** An operator's answer to a pending approval of the candidate's current version. */
export function decideApproval(cmd: DecideApproval, state: CandidateState): CandidateDecision {
  const approval = state.exists ? state.approvals.find((a) => a.approval_id === cmd.approval_id) : undefined;
  if (!approval) return refused(refusal('not_found', 'approval_unknown', `No approval with id ${cmd.approval_id}.`, { target: { approval: cmd.approval_id } }));
  if (approval.status !== 'pending') {
    return refused(refusal('precondition_failed', 'approval_decided', `Approval ${cmd.approval_id} was already ${approval.status}.`, {
      retryable: 'none',
      target: { approval: cmd.approval_id },
      details: { status: approval.status },
    }));
  }
  const open = requireOpen(state, cmd.candidate_id, cmd.now, 'approval');
  if (!open.ok) return open.decision;
  if (approval.candidate_version !== open.candidate.version) {
    return refused(refusal('precondition_failed', 'approval_stale', `Approval ${cmd.approval_id} asks about version ${approval.candidate_version}; the candidate is at version ${open.candidate.version}.`, {
      retryable: 'none',
      target: { approval: cmd.approval_id },
    }));
  }
  const data = {
    approval_id: cmd.approval_id,
    candidate_id: cmd.candidate_id,
    candidate_version: approval.candidate_version,
    decided_by: cmd.decided_by,
    note: cmd.note,
    decided_at: cmd.now,
  };
  return accepted([{ type: cmd.decision === 'grant' ? 'ApprovalGranted' : 'ApprovalDeclined', data }]);
}

/**
 * The caller cancelled while its approval was still undecided (or granted but not yet applied): the
 * approval is withdrawn and the candidate discarded, in one decision, so no later grant writes anything.
 * An applied candidate is refused as closed: the write happened, and the receipt says so.
 */
export function decideWithdraw(cmd: WithdrawApproval, state: CandidateState): CandidateDecision {
  const open = requireOpen(state, cmd.candidate_id, cmd.now, 'discard');
  if (!open.ok) return open.decision;
  const approval = open.candidate.approvals.find((a) => a.approval_id === cmd.approval_id);
  if (!approval) return refused(refusal('not_found', 'approval_unknown', `No approval with id ${cmd.approval_id}.`, { target: { approval: cmd.approval_id } }));
  const version = open.candidate.version;
  const events: CandidateEvent[] = [{ type: 'CandidateDiscarded', data: { candidate_id: cmd.candidate_id, candidate_version: version, discarded_at: cmd.now } }];
  if (approval.status === 'pending' || approval.status === 'granted') {
    events.unshift({ type: 'ApprovalWithdrawn', data: { approval_id: cmd.approval_id, candidate_id: cmd.candidate_id, candidate_version: approval.candidate_version, reason: cmd.reason, withdrawn_at: cmd.now } });
  }
  return accepted(events);
}
