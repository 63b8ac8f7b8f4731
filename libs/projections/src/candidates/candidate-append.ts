import { evolve } from '@palimpsest/core/candidate/candidate.decider';
import { CANDIDATE_EVENT_SCHEMA_VERSION, candidateStreamId, type CandidateEvent } from '@palimpsest/core/candidate/candidate.events';
import type { CandidateState, ExistingCandidate } from '@palimpsest/core/candidate/candidate.state';
import type { StreamAppend } from '@palimpsest/store/event-store';

export interface CandidateAt {
  state: CandidateState;
  streamVersion: number;
}

/**
 * Decided candidate events as one append at the loaded version, each with the candidate right after it
 * (what the registered candidate projection writes from), and the state once it has committed.
 */
export function candidateAppend(
  candidateId: string,
  loaded: CandidateAt,
  events: CandidateEvent[],
  recordedAt: string,
  metadata: Record<string, unknown>,
): { append: StreamAppend; after: CandidateState } {
  let state = loaded.state;
  const appended = events.map((event) => {
    state = evolve(state, event);
    if (!state.exists) throw new Error(`${event.type} left no candidate`);
    const after: ExistingCandidate = state;
    return { type: event.type, schemaVersion: CANDIDATE_EVENT_SCHEMA_VERSION, data: event.data, metadata, recordedAt, after };
  });
  return { append: { streamId: candidateStreamId(candidateId), expectedVersion: loaded.streamVersion, events: appended }, after: state };
}
