import type { RequestRecord } from './candidate.commands';
import type { CandidateEvent } from './candidate.events';
import type { NextAction } from '../errors/error-model';
import { refusal, type Refusal } from './candidate-refusal';
import { isLapsed, type CandidateState, type ExistingCandidate } from './candidate.state';
import { OP } from '../errors/operation-names.generated';

/** What a candidate command decided. A refusal may still record events (an expiry found on the way). */
export type CandidateDecision =
  | { kind: 'accepted'; events: CandidateEvent[] }
  | { kind: 'refused'; events: CandidateEvent[]; refusal: Refusal }
  | { kind: 'replayed'; request: RequestRecord }
  | { kind: 'awaiting_approval'; events: CandidateEvent[]; approval_id: string };

export const accepted = (events: CandidateEvent[]): CandidateDecision => ({ kind: 'accepted', events });
export const refused = (r: Refusal, events: CandidateEvent[] = []): CandidateDecision => ({ kind: 'refused', events, refusal: r });

/** The operation a refusal is answered for: discard names expiry as not_found (seed 000's error lists). */
export type CandidateOperationName = 'propose' | 'inspect' | 'check' | 'apply' | 'discard' | 'approval';

const inspectAction = (candidateId: string): NextAction => ({
  operation: OP.palimpsest_change_inspect,
  reason: 'Read the candidate as it is now',
  params: { candidate: candidateId },
});

/**
 * A new proposal is the caller's to write (its operations are its own), so what can be offered as is
 * are the reads of the targets it would be written against.
 */
export function rereadTargets(targetIds: readonly string[]): NextAction[] {
  return targetIds.slice(0, 10).map((id) => ({
    operation: OP.palimpsest_get_target,
    reason: 'Read this target at its current version, then propose the operations again with a new request_id',
    params: { target_file_id: id },
  }));
}

const targetIdsOf = (state: ExistingCandidate): string[] => state.targets.map((t) => t.target_id);

export function unknownCandidate(candidateId: string): Refusal {
  return refusal('not_found', 'candidate_unknown', `No candidate with id ${candidateId}.`, { target: { candidate: candidateId } });
}

export function expiredRefusal(state: ExistingCandidate, op: CandidateOperationName): Refusal {
  const candidateId = state.candidate_id;
  const expiresAt = state.expires_at;
  const message = `Candidate ${candidateId} expired at ${expiresAt}.`;
  const extra = { target: { candidate: candidateId }, details: { expires_at: expiresAt }, next_actions: rereadTargets(targetIdsOf(state)) };
  return op === 'discard'
    ? refusal('not_found', 'candidate_expired', message, extra)
    : refusal('snapshot_expired', 'candidate_expired', message, extra);
}

/** Refusals for a candidate that is not open, in seed order: applied, discarded, expired (recorded or lapsed). */
export function closedRefusal(state: ExistingCandidate, op: CandidateOperationName): Refusal | null {
  const id = state.candidate_id;
  if (state.status === 'applied') {
    return refusal('precondition_failed', 'candidate_applied', `Candidate ${id} was already applied.`, {
      target: { candidate: id },
      details: { receipt_id: state.applied?.receipt_id ?? null, request_id: state.applied?.request_id ?? null },
    });
  }
  if (state.status === 'discarded') {
    return refusal('precondition_failed', 'candidate_closed', `Candidate ${id} was discarded.`, {
      target: { candidate: id },
      next_actions: rereadTargets(targetIdsOf(state)),
    });
  }
  if (state.status === 'expired') return expiredRefusal(state, op);
  return null;
}

/**
 * The candidate a write command needs: it exists and is open. A candidate found past its expiry is
 * expired on the spot: the CandidateExpired event is recorded together with the refusal.
 */
export function requireOpen(
  state: CandidateState,
  candidateId: string,
  now: string,
  op: CandidateOperationName,
): { ok: true; candidate: ExistingCandidate } | { ok: false; decision: CandidateDecision } {
  if (!state.exists) return { ok: false, decision: refused(unknownCandidate(candidateId)) };
  const closed = closedRefusal(state, op);
  if (closed) return { ok: false, decision: refused(closed) };
  if (isLapsed(state, now)) {
    const event: CandidateEvent = {
      type: 'CandidateExpired',
      data: { candidate_id: state.candidate_id, candidate_version: state.version, expires_at: state.expires_at, expired_at: now },
    };
    return { ok: false, decision: refused(expiredRefusal(state, op), [event]) };
  }
  return { ok: true, candidate: state };
}

export function versionMismatch(state: ExistingCandidate, expected: number): Refusal | null {
  if (expected === state.version) return null;
  return refusal(
    'precondition_failed',
    'candidate_version_mismatch',
    `expected_candidate_version ${expected} is not the candidate's version ${state.version}.`,
    {
      target: { candidate: state.candidate_id },
      details: { expected_candidate_version: expected, current_version: state.version },
      next_actions: [inspectAction(state.candidate_id)],
    },
  );
}

/** The same request_id: the same input replays the recorded answer, another input is a conflict. */
export function requestReuse(
  request: RequestRecord | null,
  operation: RequestRecord['operation'],
  fingerprint: string,
): CandidateDecision | null {
  if (!request) return null;
  if (request.operation === operation && request.input_fingerprint === fingerprint) return { kind: 'replayed', request };
  return refused(
    refusal('conflict', 'request_id_reused', `request_id ${request.request_id} was used for a different request; use a new request_id.`, {
      target: { request_id: request.request_id },
      details: { operation: request.operation, candidate: request.candidate_id, candidate_version: request.candidate_version },
    }),
  );
}

export { inspectAction };
