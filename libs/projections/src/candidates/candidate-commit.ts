import { evolve } from '@palimpsest/core/candidate/candidate.decider';
import { CANDIDATE_EVENT_SCHEMA_VERSION, candidateStreamId, type CandidateEvent } from '@palimpsest/core/candidate/candidate.events';
import type { CandidateState } from '@palimpsest/core/candidate/candidate.state';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Sql } from '@palimpsest/store/db';
import { projectCandidateEvents, type ProjectedCandidateEvent } from './candidate.projection';

/** The candidate aggregate's unit of work: its decided events appended and its read models brought up to them, in the caller's transaction. */

export interface CandidateAt {
  state: CandidateState;
  streamVersion: number;
}

/** Append decided events and bring the candidate read models up to them; returns the state after. */
export async function commitCandidateEvents(
  tx: Sql,
  candidateId: string,
  loaded: CandidateAt,
  events: CandidateEvent[],
  recordedAt: string,
  metadata: Record<string, unknown>,
): Promise<CandidateState> {
  if (events.length === 0) return loaded.state;
  const { positions } = await appendToStream(
    tx,
    candidateStreamId(candidateId),
    loaded.streamVersion,
    events.map((e) => ({ type: e.type, schemaVersion: CANDIDATE_EVENT_SCHEMA_VERSION, data: e.data, metadata, recordedAt })),
  );
  let state = loaded.state;
  const projected: ProjectedCandidateEvent[] = events.map((event, i) => {
    state = evolve(state, event);
    if (!state.exists) throw new Error(`${event.type} left no candidate`);
    return { event, position: positions[i], streamVersion: loaded.streamVersion + i + 1, recordedAt, stateAfter: state };
  });
  await projectCandidateEvents(tx, projected);
  return state;
}
