import { computeNearMisses } from '@palimpsest/core/diagnostics/near-misses';
import { nextActions, retryableOf } from '@palimpsest/core/diagnostics/next-actions';
import {
  boundContexts,
  currentContext,
  presentCurrentContext,
  type RejectionContext,
} from '@palimpsest/core/diagnostics/rejection-context';
import type { RejectedRequest } from '@palimpsest/core/diagnostics/retry-request';
import type { NearMissSource } from '@palimpsest/core/target/target-decision';
import type { ExistingTarget } from '@palimpsest/core/target/target.state';
import { nextActionProbe, type ObservedLookups } from './next-action-probe';

/** What the response-only enrichment of a rejection needs, captured while the row was locked. */
export interface RejectionEnrichment {
  /** The request as sent: next actions are it, corrected, or reads. */
  request: RejectedRequest;
  /** The locked canonical target the current_context describes and corrections are checked against. */
  current: ExistingTarget;
  /** Fresh rejections scan the failing buffer; recovered ones scan the stored failure context. */
  nearMissSource: NearMissSource | null;
  /** A submission's rejection is recorded (a retry names it as parent); a preview's is not. */
  recorded: boolean;
  now: string;
  /** An observed submission's lookups, for the probe of its corrections. */
  observed?: ObservedLookups;
}

function nearMissesFor(diagnostic: Record<string, any>, source: NearMissSource | null): object | null {
  if (diagnostic.near_misses !== undefined) return null;
  if (source) return computeNearMisses(source.buffer, source.query, { scanSource: 'failing_buffer' });
  const query = diagnostic.near_miss_query?.near_miss_query;
  const stored = diagnostic.failure_context;
  if (typeof query === 'string' && stored?.available) {
    return computeNearMisses(stored.text, query, {
      scanSource: 'stored_failure_context',
      bufferOffset: stored.start,
      failingBufferChars: stored.total_chars,
    });
  }
  if (diagnostic.near_miss_query?.omission_reason) return { omission_reason: diagnostic.near_miss_query.omission_reason };
  return null;
}

/**
 * Adds the response-only parts of a rejection after the transaction has committed and released the
 * lock: current_context, near misses, and the envelope fields agents act on (retryable, next_actions).
 * The stored diagnostic is never changed.
 */
export function enrichRejection<T extends { status: string }>(answer: T, e: RejectionEnrichment): T {
  if (answer.status !== 'rejected') return answer;
  const body: Record<string, any> = answer;
  const diagnostic: Record<string, any> = { ...(body.diagnostic ?? {}) };
  if (body.failure_reason === 'sequential_match_invalid') {
    diagnostic.near_misses = { omission_reason: 'sequential_match_consumed' };
  } else if (body.failure_reason === 'match_absent') {
    const near = nearMissesFor(diagnostic, e.nearMissSource);
    if (near) diagnostic.near_misses = near;
  }
  const current = presentCurrentContext(currentContext(e.current.content, e.current.version, e.current.current_hash), diagnostic.failure_context);
  const attempt_id = e.recorded && typeof body.attempt_id === 'string' ? body.attempt_id : null;
  const currentBounded: RejectionContext = boundContexts(diagnostic.failure_context, current);
  return {
    ...answer,
    diagnostic,
    current_context: currentBounded,
    retryable: retryableOf(String(body.failure_reason), diagnostic.retryable),
    next_actions: nextActions(
      {
        target_id: body.target_file_id,
        failure_reason: String(body.failure_reason),
        failed_change_id: body.failed_change_id ?? null,
        diagnostic,
        current_version: e.current.version,
        current_hash: e.current.current_hash,
        current_text: e.current.content,
        attempt_id,
        client_request_id: body.client_request_id ?? null,
        request: e.request,
      },
      nextActionProbe({ state: e.current, rejectedAttemptId: attempt_id, now: e.now, observed: e.observed }, e.request),
    ),
  };
}
