import type { Answer } from '../shared/answer';
import type { AttemptView } from './attempt-view';

export interface ResponseOptions {
  deduplicated: boolean;
  /** The key as submitted (echoed even when the attempt row stores none, as on conflicts). */
  submittedKey: string | null;
  current: { version: number; current_hash: string };
  correlationId: string | null;
}

const NO_WARNINGS = { warnings: [], warning_details: [], warning_count: 0, warnings_truncated: false };

function validity(view: AttemptView) {
  return {
    protocol_valid: view.validation_stage !== 'PROTOCOL_VALIDATION',
    transaction_valid: view.status === 'accepted',
    task_correct: 'not_evaluated',
    semantic: 'not_evaluated',
  };
}

function tail(o: ResponseOptions): Record<string, unknown> {
  const out: Record<string, unknown> = { deduplicated: o.deduplicated, client_request_id: o.submittedKey };
  if (o.correlationId) out.correlation_id = o.correlationId;
  return out;
}

/** The seed's submission response, the same on every transport. */
export function submissionResponse(view: AttemptView, o: ResponseOptions): Answer<'accepted' | 'rejected'> {
  if (view.status === 'accepted') {
    return {
      status: 'accepted',
      target_file_id: view.target_id,
      before_hash: view.before_hash,
      after_hash: view.after_hash,
      version: view.after_version,
      current_version: o.current.version,
      current_hash: o.current.current_hash,
      attempt_id: view.attempt_id,
      log_sequence: view.log_sequence,
      manifest_entries_added: view.change_facts?.length ?? 0,
      ...(view.warnings ?? NO_WARNINGS),
      validity: validity(view),
      evidence: { changes: view.change_facts ?? [] },
      ...tail(o),
    };
  }
  return {
    status: 'rejected',
    target_file_id: view.target_id,
    failure_reason: view.failure_reason,
    failure_detail: view.failure_detail,
    failed_change_id: view.failed_change_id,
    before_hash: view.before_hash,
    after_hash: null,
    current_version: o.current.version,
    current_hash: o.current.current_hash,
    attempt_id: view.attempt_id,
    log_sequence: view.log_sequence,
    diagnostic: view.diagnostic,
    validity: validity(view),
    ...tail(o),
  };
}
