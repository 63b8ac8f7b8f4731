import { RETRYABLES, type ErrorCode } from '@palimpsest/core/errors/error-model';
import { retryableOf } from '@palimpsest/core/diagnostics/next-actions';
import { GUARD_FAILURE_REASONS } from '@palimpsest/core/transaction/transaction.types';
import { unreachable, type AnyAnswer } from '@palimpsest/protocol/outcome';
import { envelope, HTTP_STATUSES, httpNextAction, routedEnvelope, type ErrorEnvelope } from '../errors/error-envelope';
import { specOf, type OperationRoute } from './route-table';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

/** How an operation's answer travels over HTTP: a status code, and for errors the envelope. */
export interface HttpOutcome {
  status: number;
  error?: ErrorEnvelope;
}

/** The status an envelope of `code` is answered with: its first (resource_limit's same_request variant: 503). */
export function envelopeStatus(error: { code?: unknown; retryable?: unknown }): number {
  if (error.code === 'resource_limit' && error.retryable === 'same_request') return 503;
  const statuses = (HTTP_STATUSES as Record<string, readonly number[]>)[String(error.code)];
  return statuses?.[0] ?? 500;
}

const detail = (r: AnyAnswer, fallback: string): string => r.failure_detail ?? fallback;

/** The operation's own next actions (computed once, where it answered), each with its route. */
const routedActions = (r: AnyAnswer) => (r.next_actions ?? []).map(httpNextAction);

/**
 * One mapping of every outcome status to HTTP, exhaustive: a new status fails the type check. It reads
 * only the fields every answer may carry (AnyAnswer: any operation's Result is one, outcome.ts).
 */
export function httpOutcome(route: OperationRoute, result: AnyAnswer): HttpOutcome {
  switch (result.status) {
    case 'ok':
    case 'saved':
      return { status: route.success };
    case 'accepted':
    case 'partial': // the file is installed; the answer names what is uncertain
    case 'success':
    case 'refreshed':
    case 'in_sync':
    case 'failed': // a replay that ran and found divergence: the report is the answer
    case 'candidates':
    case 'observed':
    case 'observed_batch':
    case 'scope_page':
    case 'ambiguous': // observe_scope: the candidates to choose from are the answer
      return { status: 200 };
    case 'unsupported':
      return { status: 400, error: envelope('unsupported_operation', String(result.code), detail(result, 'Unsupported.'), { next_actions: routedActions(result) }) };
    case 'rejected':
      if (route.operation === OP.palimpsest_observe_scope) return observationRejection(result);
      // A read-only evaluation (preview) that would be rejected is still a successful preview.
      return specOf(route.operation).readOnly ? { status: 200 } : rejection(result);
    case 'invalid_argument':
      return invalid(result);
    case 'error': {
      // Candidate operations answer with their own envelope (seed 000): the HTTP status and the routes of its next actions are ours.
      const own = result.error ?? {};
      return { status: envelopeStatus(own), error: routedEnvelope(own) };
    }
    case 'not_found':
      return {
        status: 404,
        error: envelope('not_found', String(result.code ?? 'not_found'), detail(result, 'Not found.'), { next_actions: routedActions(result) }),
      };
    default:
      return unreachable(result.status);
  }
}

/** observe_scope's refusals: a stale or closed observation is a failed precondition, a bundle over its caps a resource limit. */
function observationRejection(result: AnyAnswer): HttpOutcome {
  const code = String(result.code);
  const kind: ErrorCode = code.startsWith('STALE_') || code === 'OBSERVATION_CYCLE_MISMATCH' ? 'precondition_failed' : code === 'BUNDLE_RESPONSE_TOO_LARGE' ? 'resource_limit' : 'invalid_arguments';
  const status = kind === 'precondition_failed' ? 409 : kind === 'resource_limit' ? 413 : 400;
  return { status, error: envelope(kind, code, detail(result, `Rejected: ${code}.`), { next_actions: routedActions(result) }) };
}

function rejection(result: AnyAnswer): HttpOutcome {
  const reason = String(result.failure_reason);
  const diagnostic = result.diagnostic;
  const code: ErrorCode = GUARD_FAILURE_REASONS.has(reason)
    ? 'precondition_failed'
    : diagnostic?.code === 'request_key_conflict'
      ? 'conflict'
      : 'proposal_rejected';
  const own = RETRYABLES.find((r) => r === result.retryable); // what the operation answered, computed where it decided
  const advisory = typeof diagnostic?.retryable === 'boolean' ? diagnostic.retryable : undefined;
  const retryable = code === 'conflict' ? 'none' : (own ?? retryableOf(reason, advisory));
  return {
    status: code === 'proposal_rejected' ? 422 : 409,
    error: envelope(code, code === 'conflict' ? 'request_key_conflict' : reason, detail(result, `Rejected: ${reason}.`), {
      retryable,
      next_actions: routedActions(result),
    }),
  };
}

function invalid(result: AnyAnswer): HttpOutcome {
  const code = String(result.code ?? 'invalid_argument');
  const message = detail(result, 'Invalid arguments.');
  const next_actions = routedActions(result);
  if (code === 'replacement_too_large') {
    return { status: 413, error: envelope('resource_limit', code, message, { next_actions }) };
  }
  if (code === 'file_too_large') {
    return { status: 413, error: envelope('resource_limit', code, message, { retryable: 'none', next_actions: routedActions(result) }) };
  }
  if (code === 'operation_not_permitted') {
    return { status: 403, error: envelope('permission_denied', code, message, { next_actions }) }; // the token's owner policy
  }
  return { status: 400, error: envelope('invalid_arguments', code, message, { next_actions }) };
}
