import { evolve } from '@palimpsest/core/candidate/candidate.decider';
import {
  CANDIDATE_EVENT_SCHEMA_VERSION,
  candidateStreamId,
  upcastCandidateEvent,
  type CandidateEvent,
} from '@palimpsest/core/candidate/candidate.events';
import { initialCandidateState, type CandidateState } from '@palimpsest/core/candidate/candidate.state';
import { lockCandidateRow } from '@palimpsest/projections/candidates/candidate.queries';
import { projectCandidateEvents, type ProjectedCandidateEvent } from '@palimpsest/projections/candidates/candidate.projection';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Sql } from '@palimpsest/store/db';
import { readStream } from '@palimpsest/store/read-stream';

/** The request lock and reads that the candidate's writers use beside the aggregate. */
export { eventAt, findRequest, lockRequestId } from '@palimpsest/projections/candidates/candidate.queries';

/**
 * Loading and committing the candidate aggregate. Writers serialize on the candidates row
 * (FOR UPDATE), then fold the stream — a handful of events — in a separate statement, so they see
 * everything committed before the lock was granted.
 */

export interface LoadedCandidate {
  state: CandidateState;
  streamVersion: number;
}

export async function loadCandidate(sql: Sql, candidateId: string): Promise<LoadedCandidate> {
  const stored = await readStream(sql, candidateStreamId(candidateId));
  let state: CandidateState = initialCandidateState;
  for (const s of stored) state = evolve(state, upcastCandidateEvent(s.type, s.schemaVersion, s.data));
  return { state, streamVersion: stored.length ? stored[stored.length - 1].streamVersion : 0 };
}

/** Lock, then load (an unknown candidate loads as the initial state). */
export async function lockAndLoad(tx: Sql, candidateId: string): Promise<LoadedCandidate> {
  if (!(await lockCandidateRow(tx, candidateId))) return { state: initialCandidateState, streamVersion: 0 };
  return loadCandidate(tx, candidateId);
}

/** Append decided events and bring the candidate read models up to them; returns the state after. */
export async function commitCandidateEvents(
  tx: Sql,
  candidateId: string,
  loaded: LoadedCandidate,
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
