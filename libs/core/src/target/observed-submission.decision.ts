import { OBSERVED_PROFILE, pickLink, type ObservationLink } from '../transaction/observed-scope';
import { parseProposal } from '../transaction/parse-proposal';
import { problem, type ObservedProblem } from './observed-problem';
import { isUuid } from './request-identity';
import { runSubmission, type SubmissionForm, type SubmissionOutcome } from './submission-steps';
import type { NodeGuardLookup, ObservedLookup, SubmitObservedProposal } from './target.commands';
import { SHA256_HEX } from '../text/sha256';
import type { ExistingTarget } from './target.state';

const supplied = (value: unknown) => value !== undefined && value !== null;

/**
 * palimpsest_submit_observed_operations, single form: tx/2 operations bound to one observation, recorded
 * under the observed runtime with the observation's link in the record (replay checks every field of it).
 */
const OBSERVED: SubmissionForm<SubmitObservedProposal> = {
  extraText: (cmd) => ({ observation_id: cmd.observed.observation_id, ...(cmd.observed.node_guard ? { expected_node_version: cmd.observed.node_guard.expected_node_version } : {}) }),
  parse: (cmd) => parseProposal(cmd.protocol_version, cmd.proposal),
  storedRecord: (cmd, record) => ({ ...record, observation: recordedLink(cmd.observed) }),
  syntax: (cmd) => checkObservedSyntax(cmd.observed, cmd.expected_target_version, cmd.expected_current_hash),
  runtime: () => OBSERVED_PROFILE.runtime,
  observation: (cmd, _record, state) => checkObservation(cmd.observed, state),
};

export function decideObservedSubmission(cmd: SubmitObservedProposal, state: ExistingTarget): SubmissionOutcome {
  return runSubmission(OBSERVED, cmd, state);
}

/** The link recorded with the attempt: the observation's own fields, or the id as sent when none was found. */
export function recordedLink(observed: ObservedLookup): ObservationLink | { observation_id: unknown } {
  const found = observed.found;
  if (!found) return { observation_id: observed.observation_id ?? null };
  return pickLink(found);
}

/** Before the proposal's shape: an observation id is required and must be a UUID; so are both guards. */
export function checkObservedSyntax(observed: ObservedLookup, version: unknown, hash: unknown): ObservedProblem | null {
  if (!supplied(observed.observation_id)) {
    return problem('context_invalid', 'PROTOCOL_VALIDATION', 'OBSERVATION_REQUIRED', 'observation_id is required: observe the scope first (palimpsest_observe_scope).', { argument: 'observation_id' });
  }
  if (!isUuid(observed.observation_id)) {
    return problem('context_invalid', 'PROTOCOL_VALIDATION', 'INVALID_OBSERVATION_ID', 'observation_id must be a UUID from an observed answer.', { argument: 'observation_id' });
  }
  if (!supplied(version) || !supplied(hash)) {
    const argument = supplied(version) ? 'expected_current_hash' : 'expected_target_version';
    return problem('context_invalid', 'PROTOCOL_VALIDATION', 'missing_guard', 'An observed submission needs both expected_target_version and expected_current_hash.', { argument });
  }
  const guard = observed.node_guard;
  if (guard && !(typeof guard.expected_node_version === 'string' && SHA256_HEX.test(guard.expected_node_version))) {
    return problem('context_invalid', 'PROTOCOL_VALIDATION', 'invalid_node_version', 'expected_node_version must be a node version as palimpsest_node_get answers it: 64 lowercase hex digits.', { argument: 'expected_node_version' });
  }
  return null;
}

/**
 * Under the row lock, the observation must still describe the target: same target, open editing cycle,
 * not consumed, same version and hash, and the engine naming the same scope again.
 */
export function checkObservation(observed: ObservedLookup, state: ExistingTarget): ObservedProblem | null {
  const obs = observed.found;
  const id = { observation_id: String(observed.observation_id).toLowerCase() };
  if (!obs) return problem('context_invalid', 'PRECONDITION_GUARD', 'UNKNOWN_OBSERVATION_ID', 'No observation has this id: observe the scope first.', id);
  if (obs.target_id !== state.target_id) {
    return problem('context_invalid', 'PRECONDITION_GUARD', 'OBSERVATION_TARGET_MISMATCH', `The observation belongs to target ${obs.target_id}.`, { ...id, observation_target_id: obs.target_id });
  }
  if (obs.editing_cycle_id !== state.active_editing_cycle_id) {
    return problem('context_invalid', 'PRECONDITION_GUARD', 'OBSERVATION_CYCLE_MISMATCH', 'A save closed the editing cycle of this observation: observe the scope again.', id);
  }
  if (obs.consumed_attempt_id !== null) {
    return problem('context_invalid', 'PRECONDITION_GUARD', 'OBSERVATION_ALREADY_CONSUMED', `Attempt ${obs.consumed_attempt_id} already used this observation: observe the scope again.`, { ...id, consumed_attempt_id: obs.consumed_attempt_id });
  }
  const moved = { ...id, observed_version: obs.target_version, observed_hash: obs.target_hash, current_version: state.version, current_hash: state.current_hash };
  if (obs.target_version !== state.version) {
    return problem('target_version_mismatch', 'PRECONDITION_GUARD', 'STALE_OBSERVATION_VERSION', `The target moved from version ${obs.target_version} to ${state.version}: observe the scope again.`, moved);
  }
  if (obs.target_hash !== state.current_hash || !observed.reverified) {
    return problem('target_hash_mismatch', 'PRECONDITION_GUARD', 'STALE_OBSERVATION_HASH', 'The target text no longer holds the observed scope: observe the scope again.', moved);
  }
  return observed.node_guard ? checkNodeGuard(observed.node_guard, id) : null;
}

/**
 * The observed scope's code node must still have the version the caller read: any change to its text,
 * name or kind since is a recorded refusal; changes elsewhere in the file are not. A fresh read of the
 * node (palimpsest_node_get) is what fixes it, so the reason is a retryable one.
 */
export function checkNodeGuard(guard: NodeGuardLookup, id: { observation_id: string }): ObservedProblem | null {
  if (guard.current_node_version !== null && guard.current_node_version === guard.expected_node_version) return null;
  const facts = { ...id, path: guard.path, node_id: guard.node_id, expected_node_version: guard.expected_node_version, current_node_version: guard.current_node_version };
  const detail =
    guard.path === null
      ? 'The target is bound to no workspace file, so no code node can guard it: submit without expected_node_version.'
      : guard.node_id === null
        ? `${guard.path} declares no code node at the observed scope any more: find it again (palimpsest_node_find).`
        : `${guard.node_id} changed since its version was read: read it again (palimpsest_node_get) and rebuild the operations.`;
  // Unbound, no fresh read helps: not retryable.
  return problem(guard.path === null ? 'context_invalid' : 'target_hash_mismatch', 'PRECONDITION_GUARD', 'node_version_mismatch', detail, facts);
}
