import { RETRYABLE_REASONS, type FailureReason } from '@palimpsest/core/transaction/transaction.types';
import { envelope, nextAction, type ErrorEnvelope, type NextAction } from '../errors/error-envelope';
import { specOf, type OperationRoute } from './route-table';

/** How an operation's answer travels over HTTP: a status code, and for errors the envelope. */
export interface HttpOutcome {
  status: number;
  error?: ErrorEnvelope;
}

type Result = Record<string, unknown>;

const GUARD_REASONS = new Set(['target_version_mismatch', 'target_hash_mismatch']);
const MATCH_REASONS = new Set(['match_absent', 'match_ambiguous', 'disambiguation_invalid', 'sequential_match_invalid']);

/** HTTP status of each error code a candidate operation answers with. */
const CANDIDATE_HTTP_STATUS: Record<string, number> = {
  invalid_arguments: 400,
  unsupported_operation: 400,
  permission_denied: 403,
  not_found: 404,
  stale_snapshot: 409,
  precondition_failed: 409,
  conflict: 409,
  snapshot_expired: 410,
  resource_limit: 413,
  ambiguous_owner: 422,
  read_only_origin: 422,
  compile_failed: 422,
  insufficient_context: 422,
  internal: 500,
};

export function envelopeStatus(error: Result): number {
  if (error.code === 'resource_limit' && error.retryable === 'same_request') return 503;
  return CANDIDATE_HTTP_STATUS[String(error.code)] ?? 500;
}

const detail = (r: Result, fallback: string): string => (typeof r.failure_detail === 'string' ? r.failure_detail : fallback);

export function httpOutcome(route: OperationRoute, result: Result): HttpOutcome {
  switch (result.status) {
    case 'ok':
    case 'saved':
      return { status: route.success };
    case 'accepted':
    case 'success':
    case 'failed': // a replay that ran and found divergence: the report is the answer
      return { status: 200 };
    case 'rejected':
      // A read-only evaluation (preview) that would be rejected is still a successful preview.
      return specOf(route.operation).readOnly ? { status: 200 } : rejection(result);
    case 'invalid_argument':
      return invalid(result);
    case 'error': // candidate operations answer with their own envelope (seed 000): only the HTTP status is ours
      return { status: envelopeStatus((result.error ?? {}) as Result) };
    case 'not_found':
      return {
        status: 404,
        error: envelope('not_found', String(result.code ?? 'not_found'), detail(result, 'Not found.'), {
          next_actions: [nextAction('palimpsest_initialize_target', 'Create a target, or check the id you hold')],
        }),
      };
    default:
      return { status: 500, error: envelope('internal', 'unexpected_result', `Unexpected result status ${String(result.status)}.`) };
  }
}

function rejection(result: Result): HttpOutcome {
  const reason = String(result.failure_reason);
  const target = { target_file_id: result.target_file_id };
  const message = detail(result, `Rejected: ${reason}.`);
  if (GUARD_REASONS.has(reason)) {
    return {
      status: 409,
      error: envelope('precondition_failed', reason, message, {
        next_actions: [
          nextAction('palimpsest_get_target', 'Re-read the target, rebuild the proposal on current_version and send it with If-Match', target),
        ],
      }),
    };
  }
  const diagnostic = result.diagnostic as Result | null | undefined;
  if (diagnostic?.code === 'request_key_conflict') {
    const params = { ...target, client_request_id: result.client_request_id };
    return {
      status: 409,
      error: envelope('conflict', 'request_key_conflict', message, {
        next_actions: [nextAction('palimpsest_get_attempt_log', 'Inspect the attempt this key is bound to; use a new Idempotency-Key for a new proposal', params)],
      }),
    };
  }
  const refreshable = RETRYABLE_REASONS.has(reason as FailureReason);
  return {
    status: 422,
    error: envelope('proposal_rejected', reason, message, {
      retryable: refreshable ? 'after_refresh' : 'none',
      next_actions: refreshable ? rereadActions(reason, target) : [],
    }),
  };
}

function rereadActions(reason: string, target: Result): NextAction[] {
  const actions = [nextAction('palimpsest_read_target', 'Re-read the text and rebuild the proposal on what it holds now', target)];
  if (MATCH_REASONS.has(reason)) {
    actions.unshift(nextAction('palimpsest_find_occurrences', 'List the exact occurrences of your match text and select one', target));
  }
  return actions;
}

function invalid(result: Result): HttpOutcome {
  const code = String(result.code ?? 'invalid_argument');
  const message = detail(result, 'Invalid arguments.');
  if (code === 'replacement_too_large') {
    return { status: 413, error: envelope('resource_limit', code, message) };
  }
  if (code === 'operation_not_permitted') {
    return { status: 403, error: envelope('permission_denied', code, message) }; // the token's owner policy
  }
  return { status: 400, error: envelope('invalid_arguments', code, message) };
}
