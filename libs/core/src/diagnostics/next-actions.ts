import type { NextAction, Retryable } from '../errors/error-model';
import { RETRYABLE_REASONS, type FailureReason } from '../transaction/transaction.types';

/**
 * What a caller should do next after a rejection, as calls it can make (seed 000's next_actions,
 * the one NextAction of errors/error-model.ts):
 * read, search, or resubmit with the value the diagnostic names. Params are filled where known;
 * guards always come from a fresh read.
 */

export interface RejectionSummary {
  target_id: string;
  tool: string;
  failure_reason: string;
  failed_change_id: string | null;
  diagnostic: Record<string, any> | null;
  current_version: number;
  client_request_id: string | null;
}

const READ = 'palimpsest_read_target';
const FIND = 'palimpsest_find_occurrences';

function candidatesOf(d: Record<string, any> | null): { occurrence_index: number; start: number }[] {
  return (d?.exact_candidates?.candidates as { occurrence_index: number; start: number }[] | undefined) ?? [];
}

function spanRead(r: RejectionSummary): NextAction {
  const at = Math.max(0, Number(r.diagnostic?.failure_context?.start ?? 0));
  return { operation: READ, reason: 'Read the text around the span, then resend with its exact offsets and text.', params: { target_file_id: r.target_id, start: at, length: 4000 } };
}

/** Seed definition: after_refresh when a new proposal from a fresh read can succeed, else none. */
export function retryableOf(reason: string, retryable: boolean | undefined): Retryable {
  if (retryable === undefined) return RETRYABLE_REASONS.has(reason as FailureReason) ? 'after_refresh' : 'none';
  return retryable ? 'after_refresh' : 'none';
}

export function nextActions(r: RejectionSummary): NextAction[] {
  const target = { target_file_id: r.target_id };
  switch (r.failure_reason) {
    case 'match_ambiguous':
    case 'disambiguation_invalid': {
      const actions: NextAction[] = candidatesOf(r.diagnostic).slice(0, 3).map((c) => ({
        operation: r.tool,
        reason: `Resend with occurrence_index ${c.occurrence_index} to select the occurrence at ${c.start}.`,
        params: { ...target, occurrence_index: c.occurrence_index, expected_target_version: r.current_version },
      }));
      const next = r.diagnostic?.exact_candidates?.next_occurrence_index;
      if (next) actions.push({ operation: FIND, reason: 'List the remaining occurrences.', params: { ...target, start_occurrence: next } });
      if (!actions.length) actions.push({ operation: FIND, reason: 'List the exact occurrences and choose one.', params: target });
      return actions;
    }
    case 'match_absent':
      return [
        { operation: FIND, reason: 'The text is not in the target: search for a shorter exact excerpt.', params: target },
        { operation: READ, reason: 'Read the target and copy the exact text to match.', params: target },
      ];
    case 'sequential_match_invalid':
      return [
        { operation: READ, reason: 'An earlier change in the same transaction consumed the match; read and resend as spans in descending order.', params: target },
      ];
    case 'span_out_of_bounds':
    case 'span_expected_text_mismatch':
      return [spanRead(r)];
    case 'target_version_mismatch':
    case 'target_hash_mismatch':
    case 'target_diverged':
      return [
        { operation: 'palimpsest_get_target', reason: `The target moved to version ${r.current_version}: re-read, rebuild the proposal and resend with the new guard.`, params: target },
      ];
    case 'context_invalid':
      if (r.diagnostic?.code === 'request_key_conflict') {
        return [
          { operation: 'palimpsest_get_attempt_log', reason: 'The request key is bound to another proposal: inspect it, or send this proposal under a new key.', params: { ...target, client_request_id: r.client_request_id } },
        ];
      }
      return [{ operation: r.tool, reason: 'Fix the named argument and resend.', params: r.diagnostic?.argument ? { argument: r.diagnostic.argument } : undefined }];
    default:
      return [{ operation: r.tool, reason: 'Fix the request as failure_detail describes and resend.' }];
  }
}
