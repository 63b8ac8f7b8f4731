import { decideApply } from './apply.decision';
import type { CandidateCommand } from './candidate.commands';
import type { CandidateDecision } from './candidate-decision';
import type {
  ApprovalRequestedData,
  CandidateEvent,
  CandidateExtendedData,
  CandidateProposedData,
  CheckRecordedData,
  TargetChange,
} from './candidate.events';
import type { CandidateState, CandidateTarget, ExistingCandidate } from './candidate.state';
import { decideApproval, decideDiscard, decideRecordChecks, decideWithdraw } from './lifecycle.decision';
import { decidePropose } from './propose.decision';

/** decide(command, state) → what to record and answer. Pure: everything read from storage is in the command. */
export function decide(command: CandidateCommand, state: CandidateState): CandidateDecision {
  switch (command.type) {
    case 'ProposeCandidate':
      return decidePropose(command, state);
    case 'RecordChecks':
      return decideRecordChecks(command, state);
    case 'ApplyCandidate':
      return decideApply(command, state);
    case 'DiscardCandidate':
      return decideDiscard(command, state);
    case 'DecideApproval':
      return decideApproval(command, state);
    case 'WithdrawApproval':
      return decideWithdraw(command, state);
  }
}

function requireCandidate(state: CandidateState, event: CandidateEvent): ExistingCandidate {
  if (!state.exists) throw new Error(`${event.type} on a candidate stream without CandidateProposed`);
  return state;
}

function withChanges(targets: CandidateTarget[], changes: TargetChange[]): CandidateTarget[] {
  return targets.map((t) => {
    const change = changes.find((c) => c.target_id === t.target_id);
    return change ? { ...t, result_hash: change.result_hash, operations: [...t.operations, ...change.operations] } : t;
  });
}

function proposed(d: CandidateProposedData): ExistingCandidate {
  const targets = d.base.map((b) => ({ ...b, result_hash: b.hash, operations: [] }));
  return {
    exists: true,
    candidate_id: d.candidate_id,
    version: 1,
    status: 'open',
    intent: d.intent,
    created_at: d.proposed_at,
    expires_at: d.expires_at,
    request_id: d.request_id,
    input_fingerprint: d.input_fingerprint,
    targets: withChanges(targets, d.changes),
    checks: {},
    approvals: [],
    applied: null,
  };
}

function extended(s: ExistingCandidate, d: CandidateExtendedData): ExistingCandidate {
  const joined = d.base_added.map((b) => ({ ...b, result_hash: b.hash, operations: [] }));
  return {
    ...s,
    version: d.version,
    intent: d.intent ?? s.intent,
    expires_at: d.expires_at,
    request_id: d.request_id,
    input_fingerprint: d.input_fingerprint,
    targets: withChanges([...s.targets, ...joined], d.changes),
  };
}

function checked(s: ExistingCandidate, d: CheckRecordedData): ExistingCandidate {
  const key = String(d.candidate_version);
  return { ...s, checks: { ...s.checks, [key]: { ...(s.checks[key] ?? {}), [d.check]: d.ok } } };
}

function approvalAsked(s: ExistingCandidate, d: ApprovalRequestedData): ExistingCandidate {
  const asked = { approval_id: d.approval_id, candidate_version: d.candidate_version, request_id: d.request_id, status: 'pending' as const };
  return { ...s, approvals: [...s.approvals, asked] };
}

function approvalDecided(s: ExistingCandidate, approvalId: string, status: 'granted' | 'declined' | 'withdrawn'): ExistingCandidate {
  return { ...s, approvals: s.approvals.map((a) => (a.approval_id === approvalId ? { ...a, status } : a)) };
}

/** Fold one event. Deterministic, so replaying the stream rebuilds the state and the read model. */
export function evolve(state: CandidateState, event: CandidateEvent): CandidateState {
  if (event.type === 'CandidateProposed') return proposed(event.data);
  const s = requireCandidate(state, event);
  switch (event.type) {
    case 'CandidateExtended':
      return extended(s, event.data);
    case 'CheckRecorded':
      return checked(s, event.data);
    case 'ApprovalRequested':
      return approvalAsked(s, event.data);
    case 'ApprovalGranted':
      return approvalDecided(s, event.data.approval_id, 'granted');
    case 'ApprovalDeclined':
      return approvalDecided(s, event.data.approval_id, 'declined');
    case 'ApprovalWithdrawn':
      return approvalDecided(s, event.data.approval_id, 'withdrawn');
    case 'CandidateApplied':
      return { ...s, status: 'applied', applied: event.data };
    case 'CandidateDiscarded':
      return { ...s, status: 'discarded' };
    case 'CandidateExpired':
      return { ...s, status: 'expired' };
  }
}
