import type { OperationName } from './catalog/catalog';
import type { Result } from './catalog/operation-types';
import type { AnswerNotes } from './answer-notes';
import type { CommonFields } from './refusal';

/** Every status an operation answers with: the union of the catalog's result schemas. */
export type OutcomeStatus = Result<OperationName>['status'];

/** Every outcome status at run time; the check below fails to compile if one is missing. */
export const OUTCOME_STATUSES = ['ok', 'accepted', 'rejected', 'saved', 'partial', 'success', 'failed', 'refreshed', 'in_sync', 'candidates', 'observed', 'observed_batch', 'scope_page', 'ambiguous', 'unsupported', 'invalid_argument', 'not_found', 'error'] as const satisfies readonly OutcomeStatus[];
const complete: Exclude<OutcomeStatus, (typeof OUTCOME_STATUSES)[number]> extends never ? true : never = true;
void complete;

export function isOutcomeStatus(value: unknown): value is OutcomeStatus {
  return OUTCOME_STATUSES.some((s) => s === value);
}

/** Any operation's answer: the union, operation by operation, of each one's typed Result (its success or one of its refusals). */
export type AnyResult = Result<OperationName>;

/** What dispatch answers: one operation's result, which every transport maps by its status, once. */
export type Outcome = AnyResult;

/**
 * Any answer through the fields a transport reads of every answer whatever its operation (code,
 * retryable, next_actions, diagnostic…; absent on a success). The widening is checked: a success with a
 * field of one of these names but another type would not compile here.
 */
export function commonFields(outcome: Outcome): AnyAnswer {
  return outcome;
}

/** Any operation's answer as code that serves every operation sees it: the fields every answer may carry, typed. */
export type AnyAnswer = CommonFields<OutcomeStatus> & AnswerNotes & { target_file_id?: string | null };

/**
 * The one isError rule, for every tool and transport: true for every refusal and error — the call did
 * not do what it asked (a recorded rejection, an invalid or unknown argument, something not found, the
 * error envelope, an unsupported target, an ambiguous selection answered with its candidates) — and
 * false when it did: an accepted or saved change, a successful read, a discovery's candidates, a
 * replay report (even one that found a divergence), and `partial` (the write was installed; the answer
 * says what to inspect). Every refusal carries `retryable` and next_actions saying what to do next.
 */
export function isRefusal(status: OutcomeStatus): boolean {
  switch (status) {
    case 'rejected':
    case 'invalid_argument':
    case 'not_found':
    case 'error':
    case 'unsupported':
    case 'ambiguous':
      return true;
    case 'ok':
    case 'accepted':
    case 'saved':
    case 'partial':
    case 'success':
    case 'failed':
    case 'refreshed':
    case 'in_sync':
    case 'candidates':
    case 'observed':
    case 'observed_batch':
    case 'scope_page':
      return false;
    default:
      return unreachable(status);
  }
}

/**
 * The call itself failed, for the CLI's exit status: refused, named nothing that exists, or answered
 * the error envelope. A recorded rejection (and observe_scope's ambiguous candidates) is an answer the
 * caller acts on, so `palimpsest call` exits 0 for it and prints it.
 */
export function isCallFailure(status: OutcomeStatus): boolean {
  return isRefusal(status) && status !== 'rejected' && status !== 'ambiguous';
}

/** The default branch of an exhaustive switch: a status added to a result schema fails the type check here. */
export function unreachable(value: never): never {
  throw new Error(`unhandled outcome status ${JSON.stringify(value)}`);
}
