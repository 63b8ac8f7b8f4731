import type { ProposalAcceptedData, ProposalRejectedData, RebasedFrom, WarningSummary } from '@palimpsest/core/target/target.events';
import type { ChangeFact } from '@palimpsest/core/transaction/transaction.types';

/** One attempt as a response needs it, whether it was just decided or recovered from the log. */
export interface AttemptView {
  attempt_id: string;
  /** The attempt event's global position (what min_position reads wait for); null before it is committed. */
  log_sequence: number | null;
  target_id: string;
  status: 'accepted' | 'rejected';
  client_request_id: string | null;
  before_version: number;
  before_hash: string;
  after_version: number | null;
  after_hash: string | null;
  failure_reason: string | null;
  failure_detail: string | null;
  failed_change_id: string | null;
  validation_stage: string | null;
  diagnostic: Record<string, unknown> | null;
  warnings: WarningSummary | null;
  change_facts: ChangeFact[] | null;
  /** A stale submission carried through the acceptances since its version (rebase: true); null otherwise. */
  rebased: RebasedFrom | null;
}

export function viewOfAccepted(d: ProposalAcceptedData): AttemptView {
  return {
    attempt_id: d.attempt_id,
    log_sequence: null,
    target_id: d.target_id,
    status: 'accepted',
    client_request_id: d.client_request_id,
    before_version: d.before_version,
    before_hash: d.before_hash,
    after_version: d.after_version,
    after_hash: d.after_hash,
    failure_reason: null,
    failure_detail: null,
    failed_change_id: null,
    validation_stage: null,
    diagnostic: null,
    warnings: d.warnings,
    change_facts: d.change_facts,
    rebased: d.rebased ?? null,
  };
}

export function viewOfRejected(d: ProposalRejectedData): AttemptView {
  return {
    attempt_id: d.attempt_id,
    log_sequence: null,
    target_id: d.target_id,
    status: 'rejected',
    client_request_id: d.client_request_id,
    before_version: d.before_version,
    before_hash: d.before_hash,
    after_version: null,
    after_hash: null,
    failure_reason: d.failure_reason,
    failure_detail: d.failure_detail,
    failed_change_id: d.failed_change_id,
    validation_stage: d.validation_stage,
    diagnostic: d.diagnostic,
    warnings: null,
    change_facts: null,
    rebased: null,
  };
}

/** From an attempts row (keyed recovery). */
export function viewOfRow(r: Record<string, any>): AttemptView {
  const accepted = r.status === 'accepted';
  return {
    attempt_id: r.attempt_id,
    log_sequence: r.log_sequence,
    target_id: r.target_id,
    status: r.status,
    client_request_id: r.client_request_id,
    before_version: r.before_version,
    before_hash: r.before_hash,
    after_version: r.after_version,
    after_hash: r.after_hash,
    failure_reason: r.failure_reason,
    failure_detail: r.failure_detail,
    failed_change_id: r.failed_change_id,
    validation_stage: r.validation_stage,
    diagnostic: accepted ? null : r.diagnostic,
    warnings: accepted ? r.diagnostic : null,
    change_facts: r.change_facts,
    rebased: r.rebased ?? null,
  };
}
