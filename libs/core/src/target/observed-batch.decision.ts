import { BATCH_LINK_FIELDS, OBSERVED_BATCH_PROFILE, readGroups } from '../transaction/observed-batch';
import type { ParsedProposal, RuntimeVersion, TxFailure } from '../transaction/transaction.types';
import { checkObservation } from './observed-submission.decision';
import { problem, type ObservedProblem } from './observed-problem';
import { isUuid } from './request-identity';
import { runSubmission, type SubmissionForm, type SubmissionOutcome } from './submission-steps';
import type { BatchLookup, SubmitObservedBatch } from './target.commands';
import type { ExistingTarget } from './target.state';

/**
 * palimpsest_submit_observed_operations, batch form: groups of tx/2 operations, each bound to one
 * observation of a bundle, recorded under the batch runtime with each group's link in the record.
 */
const BATCH: SubmissionForm<SubmitObservedBatch> = {
  extraText: () => ({}),
  parse: (cmd) => parseBatch(cmd.proposal),
  storedRecord: (cmd, record) => batchRecordOf(cmd.batch, record),
  syntax: (cmd) => checkBatchSyntax(cmd),
  runtime: () => OBSERVED_BATCH_PROFILE.runtime,
  observation: (cmd, record, state) => checkBatchObservations(cmd.batch, record, state),
};

export function decideObservedBatch(cmd: SubmitObservedBatch, state: ExistingTarget): SubmissionOutcome {
  return runSubmission(BATCH, cmd, state);
}

/** The batch form's own arguments; the single form's may not come with them. */
const SINGLE_FIELDS = ['observation_id', 'operations', 'expected_node_version'];

const supplied = (value: unknown) => value !== undefined && value !== null;

/**
 * Before the batch's shape: not mixed with the single form, a UUID bundle id, a request key (the seed
 * makes client_request_id mandatory: a batch is only ever retried by its key) and both guards.
 */
export function checkBatchSyntax(cmd: SubmitObservedBatch): ObservedProblem | null {
  const mixed = SINGLE_FIELDS.filter((f) => supplied(cmd.proposal[f]));
  if (mixed.length) {
    return problem('context_invalid', 'PROTOCOL_VALIDATION', 'conflicting_arguments', `The batch form (observation_bundle_id, groups) does not take ${mixed.join(', ')}.`, { arguments: mixed });
  }
  const bundleId = cmd.proposal.observation_bundle_id;
  if (!supplied(bundleId)) {
    return problem('context_invalid', 'PROTOCOL_VALIDATION', 'OBSERVATION_REQUIRED', 'observation_bundle_id is required: observe the scopes first (palimpsest_observe_scope with selections).', { argument: 'observation_bundle_id' });
  }
  if (!isUuid(bundleId)) {
    return problem('context_invalid', 'PROTOCOL_VALIDATION', 'INVALID_OBSERVATION_ID', 'observation_bundle_id must be a UUID from an observed_batch answer.', { argument: 'observation_bundle_id' });
  }
  if (!supplied(cmd.client_request_id)) {
    return problem('context_invalid', 'PROTOCOL_VALIDATION', 'missing_client_request_id', 'A batch needs a client_request_id.', { argument: 'client_request_id' });
  }
  if (!supplied(cmd.expected_target_version) || !supplied(cmd.expected_current_hash)) {
    const argument = supplied(cmd.expected_target_version) ? 'expected_current_hash' : 'expected_target_version';
    return problem('context_invalid', 'PROTOCOL_VALIDATION', 'missing_guard', 'An observed batch needs both expected_target_version and expected_current_hash.', { argument });
  }
  return null;
}

function idFailure(code: string, groupIndex: number, detail: string): TxFailure {
  return {
    failure_reason: 'context_invalid',
    failure_detail: detail,
    failed_change_id: null,
    validation_stage: 'PROTOCOL_VALIDATION',
    diagnostic: { code, argument: `groups[${groupIndex}].observation_id`, group_index: groupIndex },
    prior_changes: 0,
    failing_buffer: '',
    location: null,
  };
}

/** The batch's shape: each group one UUID observation (unique) and valid tx/2 operations; the record to store. */
export function parseBatch(proposal: Record<string, unknown>): { ok: true; proposal: ParsedProposal } | { ok: false; failure: TxFailure } {
  const seen = new Set<string>();
  const groups = readGroups(proposal.groups, 'observation_id', (value, i) => {
    if (!supplied(value)) return { ok: false, failure: idFailure('OBSERVATION_REQUIRED', i, `groups[${i}].observation_id is required.`) };
    if (!isUuid(value)) return { ok: false, failure: idFailure('INVALID_OBSERVATION_ID', i, `groups[${i}].observation_id must be a UUID of the bundle.`) };
    const id = value.toLowerCase();
    if (seen.has(id)) return { ok: false, failure: idFailure('DUPLICATE_GROUP_OBSERVATION', i, `groups[${i}] names observation ${id} again: one group per observation.`) };
    seen.add(id);
    return { ok: true, value: id };
  }, proposal.intent);
  if (!groups.ok) return groups;
  const intent = proposal.intent as string;
  const record = {
    protocol_version: OBSERVED_BATCH_PROFILE.record,
    intent,
    observation_bundle_id: String(proposal.observation_bundle_id).toLowerCase(),
    groups: groups.value.map((g) => ({ observation_id: g.observation, operations: g.operations })),
  };
  const change_count = groups.value.reduce((n, g) => n + g.changes.length, 0);
  // The runtime is the batch's own, set by the decision (not one of the tx/2 runtimes a parse infers).
  const runtime = OBSERVED_BATCH_PROFILE.runtime as unknown as RuntimeVersion;
  return { ok: true, proposal: { protocol_version: OBSERVED_BATCH_PROFILE.protocol, runtime_version: runtime, intent, record, change_count } };
}

/** The stored record: each group's observation id replaced by the link found for it (replay checks every field). */
export function batchRecordOf(batch: BatchLookup, record: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(record.groups)) return { ...record, protocol_version: OBSERVED_BATCH_PROFILE.record };
  const groups = record.groups.map((g: Record<string, unknown>) => {
    if (!g || typeof g !== 'object' || typeof g.observation_id !== 'string') return g;
    const { observation_id, ...rest } = g;
    const found = batch.found[observation_id.toLowerCase()];
    const observation = found ? Object.fromEntries(BATCH_LINK_FIELDS.map((f) => [f, found[f]])) : { observation_id };
    return { observation, ...rest };
  });
  return { ...record, groups };
}

/** Under the row lock: the bundle is known, and each group's observation is of it and still describes the target. */
export function checkBatchObservations(batch: BatchLookup, record: Record<string, unknown>, state: ExistingTarget): ObservedProblem | null {
  const bundleId = String(record.observation_bundle_id);
  if (!batch.bundle_known) {
    return problem('context_invalid', 'PRECONDITION_GUARD', 'UNKNOWN_OBSERVATION_ID', 'No bundle has this id: observe the scopes first.', { argument: 'observation_bundle_id', observation_bundle_id: bundleId });
  }
  const groups = record.groups as { observation_id: string }[];
  const problems: ObservedProblem[] = [];
  for (const [i, { observation_id }] of groups.entries()) {
    const at = { group_index: i, observation_id };
    const found = batch.found[observation_id] ?? null;
    if (found && found.bundle_id !== bundleId) {
      return problem('context_invalid', 'PRECONDITION_GUARD', 'OBSERVATION_BUNDLE_MISMATCH', `Observation ${observation_id} is not of bundle ${bundleId}.`, { ...at, observation_bundle_id: bundleId });
    }
    const p = checkObservation({ observation_id, found, reverified: batch.reverified[observation_id] === true }, state);
    if (p) problems.push({ ...p, diagnostic: { ...p.diagnostic, group_index: i } });
  }
  // As in the single form, what the observation is (unknown, foreign, closed, consumed) before whether it is stale, across all groups.
  return problems.find((p) => !STALE.has(p.diagnostic.code as string)) ?? problems[0] ?? null;
}

const STALE = new Set(['STALE_OBSERVATION_VERSION', 'STALE_OBSERVATION_HASH']);
