import type { NextAction, Retryable } from '../errors/error-model';
import { RETRYABLE_REASONS, type FailureReason } from '../transaction/transaction.types';
import type { RejectedRequest } from './retry-request';
import {
  bothGuards,
  mergedGroups,
  withoutArguments,
  failedChangeOf,
  guardedInsertion,
  nearMissCorrection,
  occurrenceChoices,
  rebuiltContext,
  refreshedRequest,
  relocatedSpan,
  type NextActionProbe,
  type RetryContext,
} from './retry-proposals';
import { positionOf } from './text-position';
import { OP } from '../errors/operation-names.generated';

export type { NextActionProbe } from './retry-proposals';

/**
 * What a caller should do next after a rejection, as calls it can make as they are (seed 000's
 * next_actions, the one NextAction of errors/error-model.ts). Every action names an operation and
 * its complete arguments: first the rejected request with a deterministic fix (an occurrence
 * selected, a near miss's exact text, guards refreshed…) when the probe says it would be accepted,
 * then the read that shows what to do.
 */
export interface RejectionSummary {
  target_id: string;
  failure_reason: string;
  failed_change_id: string | null;
  diagnostic: Record<string, any> | null;
  current_version: number;
  current_hash: string;
  /** The current canonical text (reads are placed in it). */
  current_text: string;
  /** The recorded rejected attempt (lineage of a resubmission); null for a preview. */
  attempt_id: string | null;
  client_request_id: string | null;
  request: RejectedRequest;
}

/** The HTTP envelope lists at most this many. */
export const MAX_NEXT_ACTIONS = 10;

const READ = OP.palimpsest_read_target;
const LINES = OP.palimpsest_read_lines;
const FIND = OP.palimpsest_find_occurrences;
const GET = OP.palimpsest_get_target;
const OBSERVED = OP.palimpsest_submit_observed_operations;

/** Seed definition: after_refresh when a new proposal from a fresh read can succeed, else none. */
export function retryableOf(reason: string, retryable: boolean | undefined): Retryable {
  if (retryable === undefined) return RETRYABLE_REASONS.has(reason as FailureReason) ? 'after_refresh' : 'none';
  return retryable ? 'after_refresh' : 'none';
}

/** Lines from just before `offset` of the current text, or its start when the offset is in another buffer. */
function readAround(r: RejectionSummary, buffer: string | null, offset: number | null, why: string): NextAction {
  const target = { target_file_id: r.target_id };
  if (buffer !== null && buffer === r.current_text && offset !== null && r.current_text !== '') {
    const { line } = positionOf(buffer, offset);
    const start_line = Math.max(1, line - 2);
    return { operation: LINES, reason: `${why} Read from line ${start_line} (the problem is on line ${line}).`, params: { ...target, start_line, max_chars: 2000 } };
  }
  return { operation: READ, reason: `${why} Read the current text.`, params: { ...target, start: 0, length: 4000 } };
}

const getTarget = (r: RejectionSummary, reason: string): NextAction => ({ operation: GET, reason, params: { target_file_id: r.target_id } });

/** The longest prefix of `match` the buffer holds (at least 3 code units), for a find that will answer. */
function presentPrefix(buffer: string, match: string): string | null {
  let lo = 0;
  let hi = match.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (buffer.includes(match.slice(0, mid))) lo = mid;
    else hi = mid - 1;
  }
  const prefix = match.slice(0, lo).replace(/[\uD800-\uDBFF]$/, '');
  return prefix.length >= 3 ? prefix : null;
}

function ambiguousActions(r: RejectionSummary, c: RetryContext): NextAction[] {
  const actions = occurrenceChoices(c);
  const failed = failedChangeOf(c);
  const match = typeof failed?.change.match === 'string' ? failed.change.match : null;
  const next = r.diagnostic?.exact_candidates?.next_occurrence_index;
  const target = { target_file_id: r.target_id };
  if (match !== null && next) actions.push({ operation: FIND, reason: `List the occurrences from ${next} on.`, params: { ...target, text: match, start_occurrence: next } });
  if (match !== null && !actions.length) actions.push({ operation: FIND, reason: 'List the exact occurrences and choose one.', params: { ...target, text: match } });
  return actions;
}

function absentActions(r: RejectionSummary, c: RetryContext): NextAction[] {
  const actions = nearMissCorrection(c);
  const failed = failedChangeOf(c);
  const near = r.diagnostic?.near_misses?.candidates?.[0];
  const match = typeof failed?.change.match === 'string' ? failed.change.match : null;
  const prefix = match !== null && failed?.buffer ? presentPrefix(failed.buffer, match) : null;
  if (prefix !== null) {
    actions.push({ operation: FIND, reason: 'The whole match is not in the text; find where its longest present prefix occurs.', params: { target_file_id: r.target_id, text: prefix } });
  }
  actions.push(readAround(r, failed?.buffer ?? null, near?.start ?? null, 'Copy the exact text to match.'));
  return actions;
}

function contextActions(r: RejectionSummary, c: RetryContext): NextAction[] {
  const code = r.diagnostic?.code;
  if (code === 'request_key_conflict') {
    const fixed = refreshedRequest(c, 'The request key is bound to another proposal: send this proposal under a new key derived from it.');
    const log = { target_file_id: r.target_id, client_request_id: r.client_request_id };
    return [...fixed, { operation: OP.palimpsest_get_attempt_log, reason: 'Inspect the proposal the key is bound to.', params: log }];
  }
  if (code === 'conflicting_arguments' && Array.isArray(r.diagnostic?.arguments)) return [...withoutArguments(c, r.diagnostic.arguments), getTarget(r, 'Read the target.')];
  if (code === 'DUPLICATE_GROUP_OBSERVATION') return [...mergedGroups(c), getTarget(r, 'Read the target.')];
  if (code === 'parent_attempt_not_found') return [...rebuiltContext(c, 'parent_attempt_id'), getTarget(r, 'Read the target.')];
  if (code === 'OBSERVATION_REQUIRED') {
    const reason = 'Observe the scope to change (give symbol_name to select it), then submit within it with palimpsest_submit_observed_operations and its observation_id.';
    return [{ operation: OP.palimpsest_observe_scope, reason, params: { target_file_id: r.target_id } }];
  }
  const argument = code === 'invalid_client_request_id' ? 'client_request_id' : (r.diagnostic?.argument as string | undefined);
  if (argument && ['source', 'parent_attempt_id', 'attempt', 'client_request_id'].includes(argument)) {
    return [...rebuiltContext(c, argument), getTarget(r, 'Read the target.')];
  }
  if (code === 'missing_guard' || argument === 'expected_target_version' || argument === 'expected_current_hash') {
    // An observation is itself the read the guards stand for: its submission may take them from it, any other must read first.
    const fromObservation = code === 'missing_guard' && r.request.operation === OBSERVED ? bothGuards(c) : [];
    return [...fromObservation, getTarget(r, `Read the target's version and hash, then resend with ${argument ?? 'a guard'} set from what you read.`)];
  }
  return [getTarget(r, 'Fix the request as failure_detail describes; read the target for its current version and hash.')];
}

function actionsFor(r: RejectionSummary, c: RetryContext): NextAction[] {
  switch (r.failure_reason) {
    case 'match_ambiguous':
    case 'disambiguation_invalid':
      return ambiguousActions(r, c);
    case 'match_absent':
      return absentActions(r, c);
    case 'sequential_match_invalid': {
      const first = r.diagnostic?.original_occurrences?.[0];
      return [readAround(r, r.current_text, first?.start ?? null, 'An earlier change of this transaction consumed the match: resend the changes as one edit, or as spans in descending order.')];
    }
    case 'span_out_of_bounds':
    case 'span_expected_text_mismatch': {
      const failed = failedChangeOf(c);
      const start = typeof failed?.change.start === 'number' ? failed.change.start : null;
      const guarded = r.diagnostic?.code === 'OBSERVED_INSERTION_GUARDS_REQUIRED' ? guardedInsertion(c) : [];
      return [...guarded, ...relocatedSpan(c), readAround(r, failed?.buffer ?? null, start, 'Copy the exact offsets and text of the span.')];
    }
    case 'target_version_mismatch':
    case 'target_hash_mismatch':
    case 'target_diverged': {
      const fixed = refreshedRequest(c, `The target moved to version ${r.current_version} (another writer landed first) and these changes still apply to it unambiguously: resend with the refreshed guard.`);
      return [...fixed, getTarget(r, `The target moved to version ${r.current_version}: re-read it, rebuild the proposal and resend with the new guard.`)];
    }
    case 'context_invalid':
      return contextActions(r, c);
    case 'protocol_invalid':
      return [{ operation: OP.palimpsest_capabilities, reason: 'The proposal does not fit its format (failure_detail names the field): the capabilities describe each format.', params: {} }];
    default:
      return [getTarget(r, 'Fix the request as failure_detail describes; read the target for its current version and hash.')];
  }
}

export function nextActions(r: RejectionSummary, probe: NextActionProbe): NextAction[] {
  const context: RetryContext = {
    request: r.request,
    basis: { current_version: r.current_version, current_hash: r.current_hash, attempt_id: r.attempt_id },
    failed_change_id: r.failed_change_id,
    diagnostic: r.diagnostic,
    probe,
  };
  return actionsFor(r, context).slice(0, MAX_NEXT_ACTIONS);
}
