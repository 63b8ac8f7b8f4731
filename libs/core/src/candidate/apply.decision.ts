import type { ApplyCandidate, TargetNow } from './candidate.commands';
import type { AppliedTarget, BaseChange, CandidateEvent } from './candidate.events';
import type { NextAction } from '../errors/error-model';
import { refusal, type Refusal } from './candidate-refusal';
import {
  accepted,
  rereadTargets,
  refused,
  requestReuse,
  requireOpen,
  versionMismatch,
  type CandidateDecision,
} from './candidate-decision';
import { passedChecks, writes, type CandidateState, type CandidateTarget, type ExistingCandidate } from './candidate.state';
import { OP } from '../errors/operation-names.generated';

/**
 * Apply, seed order: request_id (a request whose approval it withdrew answers so) → state → candidate
 * version → required checks on that version → a declined approval (final) → every written target still at
 * its base → every read input's file still there → approval → applied. Nothing is written unless every
 * written target is exactly at its base version. A read input (a base target the candidate does not write)
 * that moved, or whose file was edited outside Palimpsest, is allowed and listed in base_changes; one whose
 * file is gone is refused.
 */
export function decideApply(cmd: ApplyCandidate, state: CandidateState): CandidateDecision {
  const reused = requestReuse(cmd.lookups.request, 'change_apply', cmd.input_fingerprint);
  if (reused) return reused;
  const cancelled = state.exists ? withdrawn(state, cmd.request_id) : null;
  if (cancelled) return refused(cancelled);
  const open = requireOpen(state, cmd.candidate_id, cmd.now, 'apply');
  if (!open.ok) return open.decision;
  const c = open.candidate;
  const refusalFound = versionMismatch(c, cmd.expected_candidate_version) ?? missingChecks(c, cmd.require_checks) ?? declined(c);
  if (refusalFound) return refused(refusalFound);
  const moved = movedTargets(c, cmd.lookups.targets) ?? goneInputs(c, cmd.lookups.targets);
  if (moved) return refused(moved);
  if (cmd.approval.required) {
    const approval = c.approvals.find((a) => a.candidate_version === c.version);
    if (!approval) return { kind: 'awaiting_approval', events: [approvalRequested(cmd, c)], approval_id: cmd.approval.approval_id };
    if (approval.status === 'pending') return { kind: 'awaiting_approval', events: [], approval_id: approval.approval_id };
    return accepted([applied(cmd, c, approval.approval_id)]);
  }
  return accepted([applied(cmd, c, null)]);
}

function missingChecks(c: ExistingCandidate, required: string[]): Refusal | null {
  const passed = new Set(passedChecks(c, c.version));
  const missing = [...new Set(required)].filter((name) => !passed.has(name)).sort();
  if (missing.length === 0) return null;
  return refusal('precondition_failed', 'check_required', `Required check(s) ${missing.join(', ')} have not passed on candidate version ${c.version}.`, {
    target: { candidate: c.candidate_id },
    details: { missing, passed: [...passed].sort(), candidate_version: c.version },
    next_actions: [{ operation: OP.palimpsest_check_run, reason: 'Run the missing checks on this version', params: { candidate: c.candidate_id, checks: missing } }],
  });
}

/** A person declined this version: that answer is final for it, whatever request_id asks again. */
function declined(c: ExistingCandidate): Refusal | null {
  const approval = c.approvals.find((a) => a.candidate_version === c.version && a.status === 'declined');
  if (!approval) return null;
  return refusal('permission_denied', 'approval_declined', `An operator declined applying candidate ${c.candidate_id} version ${c.version}. This is an answer: do not retry around it.`, {
    target: { candidate: c.candidate_id },
    details: { answer: 'APPROVAL_DECLINED', approval_id: approval.approval_id, candidate_version: c.version },
  });
}

/** The request cancelled its call while it waited, withdrawing its approval: asked again, it answers that. */
export function withdrawn(c: ExistingCandidate, requestId: string): Refusal | null {
  const approval = c.approvals.find((a) => a.request_id === requestId && a.status === 'withdrawn');
  if (!approval) return null;
  return refusal('permission_denied', 'approval_withdrawn', `The call that asked to apply candidate ${c.candidate_id} was cancelled while it waited for an operator: approval ${approval.approval_id} was withdrawn and the candidate discarded. Nothing was written.`, {
    retryable: 'none',
    target: { candidate: c.candidate_id, request_id: requestId },
    details: { answer: 'CANCELLED', approval_id: approval.approval_id },
  });
}

function movedTargets(c: ExistingCandidate, now: Record<string, TargetNow>): Refusal | null {
  const moved = c.targets.filter(writes).filter((t) => currentOf(now, t).version !== t.version);
  if (moved.length === 0) return null;
  const entries = moved.map((t) => {
    const by = currentOf(now, t).moved_by;
    return {
      target_file_id: t.target_id,
      base_version: t.version,
      current_version: currentOf(now, t).version,
      moved_by: by?.kind === 'candidate' ? 'candidate' : 'direct_submission',
      ...(by?.kind === 'candidate' ? { candidate: by.candidate_id } : {}),
    };
  });
  const external = entries.some((e) => e.moved_by === 'direct_submission');
  const next: NextAction[] = [
    { operation: OP.palimpsest_change_discard, reason: 'Release this candidate', params: { candidate: c.candidate_id } },
    ...rereadTargets(entries.map((e) => e.target_file_id)),
  ];
  const details = { moved: entries };
  return external
    ? refusal('precondition_failed', 'external_write', `${entries.length} target(s) this candidate writes changed since its base; nothing was written.`, { target: { candidate: c.candidate_id }, details, next_actions: next })
    : refusal('conflict', 'concurrent_candidate', `Another candidate on the same base was applied to ${entries.length} target(s) this candidate writes; nothing was written.`, { target: { candidate: c.candidate_id }, details, next_actions: next });
}

/** Seed 000: an input of the base deleted or renamed since is precondition_failed (external_write); nothing is written. */
function goneInputs(c: ExistingCandidate, now: Record<string, TargetNow>): Refusal | null {
  const gone = c.targets.filter((t) => !writes(t)).flatMap((t) => {
    const disk = currentOf(now, t).disk;
    return disk && disk.observed_sha256 === null ? [{ target_file_id: t.target_id, path: disk.path, expected_sha256: disk.expected_sha256 }] : [];
  });
  if (gone.length === 0) return null;
  return refusal('precondition_failed', 'external_write', `${gone.map((g) => g.path).join(', ')}, read by this candidate, ${gone.length === 1 ? 'is' : 'are'} gone from disk (deleted or renamed since its base); nothing was written.`, {
    target: { candidate: c.candidate_id },
    details: { gone },
    next_actions: [
      { operation: OP.palimpsest_workspace_status, reason: 'See which bound files are missing', params: { path_prefix: gone[0].path } },
      { operation: OP.palimpsest_change_discard, reason: 'Discard this candidate and propose again from what is on disk', params: { candidate: c.candidate_id } },
    ],
  });
}

function currentOf(now: Record<string, TargetNow>, t: CandidateTarget): TargetNow {
  const found = now[t.target_id];
  if (!found) throw new Error(`apply: no observation of target ${t.target_id}`);
  return found;
}

function approvalRequested(cmd: ApplyCandidate, c: ExistingCandidate): CandidateEvent {
  return {
    type: 'ApprovalRequested',
    data: {
      approval_id: cmd.approval.approval_id,
      candidate_id: c.candidate_id,
      candidate_version: c.version,
      request_id: cmd.request_id,
      input_fingerprint: cmd.input_fingerprint,
      policy: cmd.approval.policy,
      prompt: approvalPrompt(c),
      requested_at: cmd.now,
    },
  };
}

export const MAX_APPROVAL_PROMPT_LENGTH = 2048;

/** What the operator is asked, bounded like seed 004's prompts. */
export function approvalPrompt(c: ExistingCandidate): string {
  const written = c.targets.filter(writes).map((t) => `${t.filename} (${t.target_id}) v${t.version}, ${t.operations.length} operation(s)`);
  const text = `Apply candidate ${c.candidate_id} version ${c.version}${c.intent ? `: ${c.intent}` : ''}. Writes ${written.length} target(s): ${written.join('; ') || 'none'}.`;
  return text.length > MAX_APPROVAL_PROMPT_LENGTH ? `${text.slice(0, MAX_APPROVAL_PROMPT_LENGTH - 3)}...` : text;
}

function applied(cmd: ApplyCandidate, c: ExistingCandidate, approvalId: string | null): CandidateEvent {
  const targets: AppliedTarget[] = c.targets
    .filter(writes)
    .sort((a, b) => (a.target_id < b.target_id ? -1 : 1))
    .map((t) => ({
      target_id: t.target_id,
      attempt_id: attemptIdOf(cmd, t.target_id),
      base_version: t.version,
      base_hash: t.hash,
      result_version: t.version + 1,
      result_hash: t.result_hash,
    }));
  const baseChanges: BaseChange[] = c.targets
    .filter((t) => !writes(t) && (currentOf(cmd.lookups.targets, t).version !== t.version || currentOf(cmd.lookups.targets, t).disk))
    .map((t) => {
      const now = currentOf(cmd.lookups.targets, t);
      return { target_id: t.target_id, base_version: t.version, base_hash: t.hash, current_version: now.version, current_hash: now.hash };
    });
  return {
    type: 'CandidateApplied',
    data: {
      candidate_id: c.candidate_id,
      candidate_version: c.version,
      receipt_id: cmd.receipt_id,
      request_id: cmd.request_id,
      input_fingerprint: cmd.input_fingerprint,
      approval_id: approvalId,
      targets,
      base_changes: baseChanges,
      applied_at: cmd.now,
    },
  };
}

function attemptIdOf(cmd: ApplyCandidate, targetId: string): string {
  const id = cmd.attempt_ids[targetId];
  if (!id) throw new Error(`apply: no attempt id for target ${targetId}`);
  return id;
}

