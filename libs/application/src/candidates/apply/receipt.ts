import type { CandidateAnswer } from '../shared/envelope';
import type { BaseChange, CandidateAppliedData, CandidateEvent } from '@palimpsest/core/candidate/candidate.events';

/** The apply receipt (seed 000), built from the CandidateApplied event: the same for a fresh and a replayed answer. */
export function receiptOf(d: CandidateAppliedData): Record<string, unknown> {
  return {
    receipt_id: d.receipt_id,
    request_id: d.request_id,
    input_fingerprint: d.input_fingerprint,
    outcome: 'applied',
    candidate: d.candidate_id,
    candidate_version: d.candidate_version,
    targets: d.targets.map((t) => ({
      target_file_id: t.target_id,
      attempt_id: t.attempt_id,
      base_version: t.base_version,
      result_version: t.result_version,
      before_sha256: t.base_hash,
      after_sha256: t.result_hash,
    })),
    approval_id: d.approval_id,
    recorded_at: d.applied_at,
  };
}

const baseChangeView = (b: BaseChange) => ({
  target_file_id: b.target_id,
  base_version: b.base_version,
  current_version: b.current_version,
  base_sha256: b.base_hash,
  current_sha256: b.current_hash,
});

export function appliedAnswer(event: CandidateEvent | null, replayed: boolean): CandidateAnswer {
  if (!event || event.type !== 'CandidateApplied') throw new Error('apply: the recorded request names no CandidateApplied event');
  const answer: CandidateAnswer = { status: 'ok', replayed, receipt: receiptOf(event.data) };
  if (!replayed && event.data.base_changes.length) answer.base_changes = event.data.base_changes.map(baseChangeView);
  return answer;
}
