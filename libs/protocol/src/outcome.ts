import type { OperationName } from './catalog/catalog';
import type { Result } from './catalog/operation-types';

/** Every status an operation answers with: the union of the catalog's result schemas. */
export type OutcomeStatus = Result<OperationName>['status'];

/** Every outcome status at run time; the check below fails to compile if one is missing. */
export const OUTCOME_STATUSES = ['ok', 'accepted', 'rejected', 'saved', 'partial', 'success', 'failed', 'refreshed', 'in_sync', 'candidates', 'observed', 'observed_batch', 'scope_page', 'ambiguous', 'unsupported', 'invalid_argument', 'not_found', 'error'] as const satisfies readonly OutcomeStatus[];
const complete: Exclude<OutcomeStatus, (typeof OUTCOME_STATUSES)[number]> extends never ? true : never = true;
void complete;

export function isOutcomeStatus(value: unknown): value is OutcomeStatus {
  return OUTCOME_STATUSES.some((s) => s === value);
}

/** What dispatch answers: one operation's result, which every transport maps by its status, once. */
export type Outcome = { status: OutcomeStatus; [field: string]: unknown };

/**
 * The call itself failed: it was refused, named nothing that exists, or (candidates) answered seed
 * 000's error envelope. A rejected proposal, a failed replay report or a saved checkpoint is a
 * successful call.
 */
export function isCallFailure(status: OutcomeStatus): boolean {
  switch (status) {
    case 'invalid_argument':
    case 'not_found':
    case 'error':
    case 'unsupported': // observe_scope: no grammar serves the target
      return true;
    case 'ok':
    case 'accepted':
    case 'rejected':
    case 'saved':
    case 'partial': // installed, with the checkpoint unset or uncertain (seed 003): the answer says what to inspect
    case 'success':
    case 'failed':
    case 'refreshed':
    case 'in_sync':
    case 'candidates':
    case 'observed':
    case 'observed_batch':
    case 'scope_page':
    case 'ambiguous': // observe_scope: a refusal whose answer is the candidates to choose from
      return false;
    default:
      return unreachable(status);
  }
}

/** The default branch of an exhaustive switch: a status added to a result schema fails the type check here. */
export function unreachable(value: never): never {
  throw new Error(`unhandled outcome status ${JSON.stringify(value)}`);
}
