import type { SubmitEditsAnswer } from '@palimpsest/protocol/catalog/operation-answers.generated';
import type { Refusal } from '@palimpsest/protocol/refusal';
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

function tail(o: ResponseOptions): Pick<SubmitEditsAnswer, 'deduplicated' | 'client_request_id' | 'correlation_id'> {
  return { deduplicated: o.deduplicated, client_request_id: o.submittedKey, ...(o.correlationId ? { correlation_id: o.correlationId } : {}) };
}

/** A field the attempt's outcome always records (the view types it for both outcomes): its absence is a defect. */
function recorded<T>(value: T | null, field: string): T {
  if (value === null) throw new Error(`an attempt answered without its ${field}`);
  return value;
}

/** The seed's submission response, the same on every transport. */
export function submissionResponse(view: AttemptView, o: ResponseOptions): SubmitEditsAnswer | Refusal<'rejected'> {
  if (view.status === 'accepted') {
    return {
      status: 'accepted',
      target_file_id: view.target_id,
      before_hash: view.before_hash,
      after_hash: recorded(view.after_hash, 'after_hash'),
      version: recorded(view.after_version, 'after_version'),
      current_version: o.current.version,
      current_hash: o.current.current_hash,
      attempt_id: view.attempt_id,
      log_sequence: recorded(view.log_sequence, 'log_sequence'),
      manifest_entries_added: view.change_facts?.length ?? 0,
      ...(view.warnings ?? NO_WARNINGS),
      validity: validity(view),
      evidence: { changes: view.change_facts ?? [] },
      ...(view.rebased ? { rebased: { from_version: view.rebased.from_version, through_attempts: view.rebased.through_attempt_ids.length, spans: view.rebased.spans } } : {}),
      ...tail(o),
    };
  }
  return {
    status: 'rejected',
    target_file_id: view.target_id,
    failure_reason: recorded(view.failure_reason, 'failure_reason'),
    failure_detail: recorded(view.failure_detail, 'failure_detail'),
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
