import {
  closedRefusal,
  expiredRefusal,
  unknownCandidate,
  type CandidateOperationName,
} from '@palimpsest/core/candidate/candidate-decision';
import type { Refusal } from '@palimpsest/core/candidate/candidate-refusal';
import { isLapsed, type CandidateState, type ExistingCandidate } from '@palimpsest/core/candidate/candidate.state';

/**
 * The refusal a read of the candidate answers with (unknown, closed, or past its expiry), without
 * recording anything: a write command records the expiry when it finds it.
 */
export function readRefusal(state: CandidateState, candidateId: string, now: string, op: CandidateOperationName): Refusal | null {
  if (!state.exists) return unknownCandidate(candidateId);
  const closed = closedRefusal(state, op);
  if (closed) return closed;
  return isLapsed(state, now) ? expiredRefusal(state, op) : null;
}

export function asExisting(state: CandidateState): ExistingCandidate {
  if (!state.exists) throw new Error('candidate expected');
  return state;
}
